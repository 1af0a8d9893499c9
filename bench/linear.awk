# linear.awk reads `go test -bench` output and checks each size=1MiB / size=10MiB
# pair of one benchmark: ten times the input may cost at most LIMIT (default 12)
# times the time. With -count N it compares the median run of each size: one
# slow or fast outlier on a shared machine (a GC cycle that did or did not fall
# inside the small case) does not decide. It prints one line per pair and exits
# 1 when a pair is over. Used by `make bench-linear`; see README "Benchmarks".
BEGIN { if (LIMIT == "") LIMIT = 12 }
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
END {
	over = 0; pairs = 0
	for (i = 1; i <= n; i++) {
		k = names[i]
		if (!((k, "1MiB") in runs) || !((k, "10MiB") in runs)) continue
		pairs++
		r = median(k, "10MiB") / median(k, "1MiB")
		flag = r > LIMIT ? "  OVER" : ""
		if (r > LIMIT) over++
		printf "%-70s %8.1fx%s\n", k, r, flag
	}
	printf "linear: %d pairs, %d over %sx\n", pairs, over, LIMIT
	exit over > 0
}
