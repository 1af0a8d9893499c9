package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"sync/atomic"
	"time"
)

// rig is what one run measures: the upstream, the two proxies and the
// load's client.
type rig struct {
	c        config
	up       *upstream
	gw, fl   *child
	client   *http.Client
	bin, dir string
	seed     atomic.Int64 // the last new result's seed
}

// run measures every figure and writes its lines to w.
func run(c config, w io.Writer) error {
	dir, err := os.MkdirTemp("", "gatewayfloor")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	r := &rig{c: c, dir: dir, bin: c.Toolout, client: newClient()}
	if r.bin == "" {
		if r.bin, err = buildToolout(dir); err != nil {
			return err
		}
	}
	if r.up, err = startUpstream(); err != nil {
		return err
	}
	defer r.up.Close()
	if r.gw, err = startGateway(r.bin, dir, r.up.URL, gatewayConfig(c.Size, c.Cap)); err != nil {
		return err
	}
	defer func() { r.gw.Stop() }()
	if r.fl, err = startFloor(r.up.URL); err != nil {
		return err
	}
	defer r.fl.Stop()
	// Warm both: connections, the runtime's heap, the gateway's pools.
	for _, p := range []*child{r.gw, r.fl} {
		if _, err := throughput(r.client, p.URL, []byte(passthroughBody), c.Conc, 300*time.Millisecond); err != nil {
			return err
		}
	}
	for rep := range c.Reps {
		fmt.Fprintf(os.Stderr, "gatewayfloor: repetition %d of %d\n", rep+1, c.Reps)
		ls, err := r.repetition(rep)
		if err := writeLines(w, ls); err != nil {
			return err
		}
		if err != nil {
			return err
		}
	}
	if c.Mem == 0 {
		return nil
	}
	r.gw.Stop()
	fmt.Fprintf(os.Stderr, "gatewayfloor: memory, %d new results to a fresh gateway\n", c.Mem)
	if r.gw, err = startGateway(r.bin, dir, r.up.URL, gatewayConfig(c.Size, c.Cap)); err != nil {
		return err
	}
	l, err := r.memory()
	if err != nil {
		return err
	}
	return writeLines(w, []line{l})
}

// pair returns the two proxies in the order of repetition rep: the
// gateway first in even ones.
func (r *rig) pair(rep int) [2]*child {
	if rep%2 == 0 {
		return [2]*child{r.gw, r.fl}
	}
	return [2]*child{r.fl, r.gw}
}

// repetition measures each figure once on both proxies.
func (r *rig) repetition(rep int) ([]line, error) {
	var ls []line
	// throughput
	rps, err := r.throughput(rep)
	if err != nil {
		return ls, err
	}
	ls = append(ls, line{"throughput", r.c.Conc, []value{{rps["gateway"], "gateway-req/s"}, {rps["floor"], "floor-req/s"}}})
	// latency and ttfb
	for _, fig := range []string{"latency", "ttfb"} {
		l, err := r.rounds(fig, rep)
		if err != nil {
			return ls, err
		}
		ls = append(ls, l)
	}
	// CPU per request: new results, then one result repeated
	for _, fig := range []string{"new-200KB", "repeated-200KB"} {
		cpu := map[string]float64{}
		for _, p := range r.pair(rep) {
			body := r.newBody
			if fig == "repeated-200KB" {
				same := toolBody(logResult(r.nextSeed(), r.c.Size))
				if err := post(bg, r.client, p.URL, same); err != nil { // stored before measuring
					return ls, err
				}
				body = func(int) []byte { return same }
			}
			v, err := cpuPerRequest(r.client, p.PID(), p.URL, body, r.c.CPU, 4)
			if err != nil {
				return ls, err
			}
			cpu[p.Name] = v
		}
		ls = append(ls, line{fig, r.c.CPU, []value{{cpu["gateway"], "gateway-cpu-ms/req"}, {cpu["floor"], "floor-cpu-ms/req"}}})
	}
	return ls, nil
}

// turns is how many parts each proxy's throughput run is cut into,
// the proxies taking turns, so that a neighbour's burst on the shared
// machine falls on both.
const turns = 6

// throughput measures each proxy's answers per second over -duration in
// all, in slices taken in turn.
func (r *rig) throughput(rep int) (map[string]float64, error) {
	sum := map[string]float64{}
	for s := range turns {
		for _, p := range r.pair(rep + s) {
			v, err := throughput(r.client, p.URL, []byte(passthroughBody), r.c.Conc, r.c.Duration/turns)
			if err != nil {
				return nil, err
			}
			sum[p.Name] += v / turns
		}
	}
	return sum, nil
}

// newBody is a request with a result no request before carried.
func (r *rig) newBody(int) []byte { return toolBody(logResult(r.nextSeed(), r.c.Size)) }

func (r *rig) nextSeed() int { return int(r.seed.Add(1)) }

// rounds times fig (latency: a whole request with nothing to compress;
// ttfb: the first byte of a streamed one) -latency times on each of
// direct, floor and gateway, round-robin, the first of a round rotating,
// and returns their p50s and each proxy's p50 minus the direct one.
func (r *rig) rounds(fig string, rep int) (line, error) {
	targets := []string{r.up.URL, r.fl.URL, r.gw.URL}
	ds := make([][]time.Duration, 3)
	for i := range r.c.Latency {
		for k := range 3 {
			t := (i + k + rep) % 3
			var d time.Duration
			var err error
			if fig == "ttfb" {
				d, err = ttfb(r.client, r.up, targets[t])
			} else {
				d, err = timed(r.client, targets[t], []byte(passthroughBody))
			}
			if err != nil {
				return line{}, fmt.Errorf("%s, %s: %w", fig, [3]string{"direct", "floor", "gateway"}[t], err)
			}
			ds[t] = append(ds[t], d)
		}
	}
	direct, floor, gw := percentile(ds[0], 50), percentile(ds[1], 50), percentile(ds[2], 50)
	return line{fig, r.c.Latency, []value{
		{ms(direct), "direct-ms"}, {ms(floor), "floor-ms"}, {ms(gw), "gateway-ms"},
		{ms(floor - direct), "floor-added-ms"}, {ms(gw - direct), "gateway-added-ms"},
	}}, nil
}

// memory sends -mem new results to the gateway from 4 clients and reads
// its peak resident set.
func (r *rig) memory() (line, error) {
	cpu, err := cpuPerRequest(r.client, r.gw.PID(), r.gw.URL, r.newBody, r.c.Mem, 4)
	if err != nil {
		return line{}, err
	}
	peak, err := peakRSS(r.gw.PID())
	if err != nil {
		return line{}, err
	}
	return line{"memory", r.c.Mem, []value{
		{float64(peak) / (1 << 20), "peak-MiB"}, {float64(r.c.Cap) / (1 << 20), "cap-MiB"},
		{cpu, "gateway-cpu-ms/req"},
	}}, nil
}
