# linear.awk reads `go test -bench` output of one or more packages and checks
# each pair of sub-benchmarks of one benchmark that differ only in a last
# element size=S and size=10S, S at most 1 MiB (1MiB and 10MiB; 96KiB and
# 960KiB where the input's bound is 1 MiB): ten times the input may cost at most LIMIT
# (default 12) times the time. A pair is named by its package (the `pkg:`
# line go test prints, less the module path) and benchmark, so that two
# packages may hold benchmarks of one name. With -count N it compares the
# median run of each size: one slow or fast outlier on a shared machine (a GC
# cycle that did or did not fall inside the small case) does not decide.
#
# A benchmark may have a baseline, BenchmarkXBaseline for BenchmarkX in the
# same package, with the same sub-benchmarks: a well-known implementation
# doing the same kind of work on the same inputs in the same run
# (encoding/json building the tree of a schema). Where the baseline itself
# grows by more than LIMIT, because the 10 MiB working set outgrows the CPU
# cache that held the 1 MiB one, the pair may grow as much as the baseline
# times SLACK (default 1.15), and no more. The baseline's own pairs are
# printed and never fail.
#
# It prints one line per pair (package, benchmark, sizes, ratio) and exits 1
# when a pair is over. With AGAIN=1 it prints instead, for each pair over,
# two lines: its package directory and the -bench pattern that selects its
# small size (and its baseline's), then the same for its large size, for
# `make bench-linear` to measure each size again alone, in a process of its
# own. Used by
# `make bench-linear`; see README "Benchmarks".
BEGIN {
	if (LIMIT == "") LIMIT = 12
	if (SLACK == "") SLACK = 1.15
	pkg = "."
}
/^pkg: / {
	pkg = $2
	sub(/^github\.com\/toolout\/toolout\/?/, "", pkg)
	if (pkg == "") pkg = "."
}
/^Benchmark/ && $1 ~ /\/size=[0-9]+(B|KiB|MiB|GiB)(-[0-9]+)?$/ {
	name = $1
	sub(/-[0-9]+$/, "", name)          # GOMAXPROCS suffix
	size = name
	sub(/.*\/size=/, "", size)
	sub(/\/size=[^\/]*$/, "", name)
	ns = ""
	for (i = 2; i < NF; i++) if ($(i+1) == "ns/op") ns = $i
	if (ns == "") next
	k = pkg SUBSEP name
	if (!(k in order)) { order[k] = ++n; keys[n] = k }
	if (!((k, size) in runs)) sizes[k] = sizes[k] " " size
	m = ++runs[k, size]
	t[k, size, m] = ns + 0
}
# bytes returns the size named s (96KiB, 10MiB) in bytes.
function bytes(s,    v) {
	v = s; sub(/[A-Za-z]+$/, "", v); v += 0
	if (s ~ /KiB$/) return v * 1024
	if (s ~ /MiB$/) return v * 1048576
	if (s ~ /GiB$/) return v * 1073741824
	return v
}
function median(k, size,    m, i, j, v, a) {
	m = runs[k, size]
	for (i = 1; i <= m; i++) {           # insertion sort of a few runs
		v = t[k, size, i]
		for (j = i - 1; j >= 1 && a[j] > v; j--) a[j+1] = a[j]
		a[j+1] = v
	}
	return m % 2 ? a[(m+1)/2] : (a[m/2] + a[m/2+1]) / 2
}
# tenfold returns the size of k that is ten times small, or "" (also when
# small is over 1 MiB: the chunk planner's 100 MiB case shows scale, not a
# pair).
function tenfold(k, small,    s, i, nf) {
	if (bytes(small) > 1048576) return ""
	nf = split(sizes[k], s, " ")
	for (i = 1; i <= nf; i++) if (bytes(s[i]) == 10 * bytes(small)) return s[i]
	return ""
}
function ratio(k, small, big) { return median(k, big) / median(k, small) }
# baseline returns the key of k's baseline benchmark when it has the pair
# small/big too, or "".
function baseline(k, small, big,    p, name, top, rest, b) {
	split(k, p, SUBSEP); name = p[2]
	top = name; rest = ""
	if (index(name, "/")) { top = substr(name, 1, index(name, "/") - 1); rest = substr(name, index(name, "/")) }
	b = p[1] SUBSEP top "Baseline" rest
	return ((b, small) in runs) && ((b, big) in runs) ? b : ""
}
# quote escapes the regexp metacharacters of s.
function quote(s) { gsub(/[][\\.+*?(){}|^$]/, "\\\\&", s); return s }
# pattern returns the -bench pattern of benchmark name (package-less key
# part) at one size, with its baseline.
function pattern(name, size,    e, ne, i, p) {
	ne = split(name, e, "/")
	p = "^(" quote(e[1]) "|" quote(e[1]) "Baseline)$"
	for (i = 2; i <= ne; i++) p = p "/^" quote(e[i]) "$"
	return p "/^size=" size "$"
}
END {
	over = 0; pairs = 0
	for (i = 1; i <= n; i++) {
		k = keys[i]
		split(k, p, SUBSEP)
		nf = split(sizes[k], s, " ")
		for (j = 1; j <= nf; j++) {
			small = s[j]; big = tenfold(k, small)
			if (big == "") continue
			r = ratio(k, small, big)
			top = p[2]; sub(/\/.*/, "", top)
			label = sprintf("%-22s %-62s %s", p[1], p[2], small "/" big)
			if (top ~ /Baseline$/) {
				if (!AGAIN) printf "%s %6.1fx  (baseline)\n", label, r
				continue
			}
			pairs++
			limit = LIMIT; note = ""
			b = baseline(k, small, big)
			if (b != "" && ratio(b, small, big) * SLACK > limit) {
				limit = ratio(b, small, big) * SLACK
				note = sprintf("  (baseline %.1fx, limit %.1fx)", ratio(b, small, big), limit)
			}
			if (r > limit) over++
			if (AGAIN) {
				if (r > limit) printf "%s\t%s\n%s\t%s\n", p[1], pattern(p[2], small), p[1], pattern(p[2], big)
				continue
			}
			printf "%s %6.1fx%s%s\n", label, r, note, (r > limit ? "  OVER" : "")
		}
	}
	if (AGAIN) exit 0
	printf "linear: %d pairs, %d over %sx (or their baseline's ratio times %s)\n", pairs, over, LIMIT, SLACK
	exit over > 0
}
