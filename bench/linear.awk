# linear.awk reads `go test -bench` output and checks each size=1MiB / size=10MiB
# pair of one benchmark: ten times the input may cost at most LIMIT (default 12)
# times the time. With -count N it compares the median run of each size: one
# slow or fast outlier on a shared machine (a GC cycle that did or did not fall
# inside the small case) does not decide.
#
# A benchmark may have a baseline, BenchmarkXBaseline for BenchmarkX, with the
# same sub-benchmarks: a well-known implementation doing the same kind of work
# on the same inputs in the same run (encoding/json building the tree of a
# schema). Where the baseline itself grows by more than LIMIT, because the 10
# MiB working set outgrows the CPU cache that held the 1 MiB one, the pair may
# grow as much as the baseline times SLACK (default 1.15), and no more. The
# baseline's own pairs are printed and never fail.
#
# It prints one line per pair and exits 1 when a pair is over. Used by `make
# bench-linear`; see README "Benchmarks".
BEGIN {
	if (LIMIT == "") LIMIT = 12
	if (SLACK == "") SLACK = 1.15
}
/^Benchmark/ && /\/size=(1|10)MiB/ {
	name = $1
	sub(/-[0-9]+$/, "", name)          # GOMAXPROCS suffix
	size = name
	sub(/.*\/size=/, "", size)
	sub(/\/size=(1|10)MiB/, "", name)
	for (i = 2; i < NF; i++) if ($(i+1) == "ns/op") ns = $i
	if (!(name in order)) { order[name] = ++n; names[n] = name }
	k = ++runs[name, size]
	t[name, size, k] = ns + 0
}
function median(name, size,    m, i, j, v, a) {
	m = runs[name, size]
	for (i = 1; i <= m; i++) {           # insertion sort of a few runs
		v = t[name, size, i]
		for (j = i - 1; j >= 1 && a[j] > v; j--) a[j+1] = a[j]
		a[j+1] = v
	}
	return m % 2 ? a[(m+1)/2] : (a[m/2] + a[m/2+1]) / 2
}
function paired(k) { return ((k, "1MiB") in runs) && ((k, "10MiB") in runs) }
function ratio(k) { return median(k, "10MiB") / median(k, "1MiB") }
# baseline returns the name of k's baseline pair, or "".
function baseline(k,    top, rest, b) {
	top = k; rest = ""
	if (index(k, "/")) { top = substr(k, 1, index(k, "/") - 1); rest = substr(k, index(k, "/")) }
	b = top "Baseline" rest
	return paired(b) ? b : ""
}
END {
	over = 0; pairs = 0
	for (i = 1; i <= n; i++) {
		k = names[i]
		if (!paired(k)) continue
		r = ratio(k)
		top = k; sub(/\/.*/, "", top)
		if (top ~ /Baseline$/) {
			printf "%-70s %8.1fx  (baseline)\n", k, r
			continue
		}
		pairs++
		limit = LIMIT; note = ""
		b = baseline(k)
		if (b != "" && ratio(b) * SLACK > limit) {
			limit = ratio(b) * SLACK
			note = sprintf("  (baseline %.1fx, limit %.1fx)", ratio(b), limit)
		}
		flag = r > limit ? "  OVER" : ""
		if (r > limit) over++
		printf "%-70s %8.1fx%s%s\n", k, r, note, flag
	}
	printf "linear: %d pairs, %d over %sx (or their baseline's ratio times %s)\n", pairs, over, LIMIT, SLACK
	exit over > 0
}
