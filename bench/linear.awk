# linear.awk reads `go test -bench` output and checks each size=1MiB / size=10MiB
# pair of one benchmark: ten times the input may cost at most LIMIT (default 12)
# times the time. It prints one line per pair and exits 1 when a pair is over.
# Used by `make bench-linear`; see README "Benchmarks".
BEGIN { if (LIMIT == "") LIMIT = 12 }
/^Benchmark/ && /\/size=(1|10)MiB/ {
	name = $1
	sub(/-[0-9]+$/, "", name)          # GOMAXPROCS suffix
	size = name
	sub(/.*\/size=/, "", size)
	sub(/\/size=(1|10)MiB/, "", name)
	for (i = 2; i < NF; i++) if ($(i+1) == "ns/op") ns = $i
	if (!(name in order)) { order[name] = ++n; names[n] = name }
	t[name, size] = ns
}
END {
	over = 0; pairs = 0
	for (i = 1; i <= n; i++) {
		k = names[i]
		if (!((k, "1MiB") in t) || !((k, "10MiB") in t)) continue
		pairs++
		r = t[k, "10MiB"] / t[k, "1MiB"]
		flag = r > LIMIT ? "  OVER" : ""
		if (r > LIMIT) over++
		printf "%-70s %8.1fx%s\n", k, r, flag
	}
	printf "linear: %d pairs, %d over %sx\n", pairs, over, LIMIT
	exit over > 0
}
