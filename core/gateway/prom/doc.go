// Package prom exposes the compression gateway's metrics to Prometheus
// through the official Go client (github.com/prometheus/client_golang).
//
// # Contract
//
// [New] registers every metric below in the [Registry] it is given (a
// *prometheus.Registry: one per gateway, never the global default one)
// and returns a [*Metrics], which is a proxy.Observer: the proxy reports
// its events to it. [Metrics.Handler] serves that registry in the
// Prometheus text exposition format, for GET /metrics. The pipe's counters
// (a func such as (*gateway.Pipe).Metrics) and the store's size
// (gateway.Store.Stats) are read at scrape time by custom collectors that
// emit const metrics: the pipe stays the one owner of its counts, nothing
// is counted twice, and no goroutine polls in the background. All methods
// are safe for concurrent use; events cost a map lookup and an atomic add.
//
// # Metrics
//
// Every name starts with toolout_gateway_.
//
//	requests_total{route,outcome}          counter  client requests finished (Observer.Request);
//	                                                route: openai, anthropic, responses, passthrough;
//	                                                outcome: ok, bad_request, too_large, overloaded,
//	                                                upstream_error, canceled, failed
//	upstream_requests_total{route,status}  counter  upstream calls (Observer.Upstream); status is
//	                                                the HTTP code, or "error" when no response came
//	upstream_duration_seconds{route}       histogram  upstream call durations; buckets 0.05, 0.1,
//	                                                0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120 s
//	overhead_seconds{route}                histogram  each request's time in the gateway, upstream
//	                                                excluded (proxy.OverheadObserver: the value
//	                                                of proxy.OverheadHeader); buckets 0.1, 0.25,
//	                                                0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500 ms,
//	                                                1, 2.5, 5 s
//	expansions_total{answer}               counter  expand_context calls answered (Observer.Expansion):
//	                                                original, missing, repeated, not_available
//	limited_total{limit}                   counter  requests refused or cut by a bound (Observer.Limited):
//	                                                body_bytes, json_values, json_nesting, results,
//	                                                work, concurrency; max_bytes counts tool results
//	                                                passed through as longer than max_bytes
//	hidden_history_total{member}           counter  requests that continue a conversation the provider
//	                                                holds (proxy.HistoryObserver): previous_response_id,
//	                                                conversation (Responses API); only the tool outputs
//	                                                they carry can be compressed
//	compressions_total{result}             counter  from the pipe: ok (kept compressed), failed
//	cache_total{result}                    counter  from the pipe: hit, miss (compressed-text reuse)
//	bytes_saved_total                      counter  from the pipe: bytes removed by compression, net of
//	                                                what answered expansions gave back (Pipe.Unsave)
//	store_failures_total                   counter  from the pipe: tool results passed through because a
//	                                                store call failed (Redis down, hung, out of memory)
//	store_entries{kind}                    gauge    from Store.Stats: original, compressed
//	store_bytes                            gauge    from Store.Stats: keys and values of both kinds
//	store_errors_total                     counter  scrapes whose Store.Stats failed or timed out
//
// # Choices where the spec is silent
//
//   - The registry: New takes a [Registry] (Registerer and Gatherer), so
//     Handler serves exactly what was registered there, the caller's own
//     collectors included; nil means a fresh registry. Registering twice in
//     one registry is an error, and a failed New leaves the registry as it
//     was.
//   - Series exist before the first event, at 0: requests_total for every
//     outcome of the four routes, upstream_duration_seconds and
//     overhead_seconds for the four routes, every answer and limit, and both hidden_history members. upstream_requests_total has no
//     series until a call is made (its statuses are not known in advance).
//   - Label values are bounded, whatever a caller passes: a value the
//     gateway does not define is kept as given for up to 16 distinct
//     values per label; beyond that, and for an empty value, one over 64
//     bytes or one that is not UTF-8, the value is [Other] ("other"). A
//     status outside 100..599 (other than 0) is "other" too; a negative
//     duration counts as 0.
//   - Store.Stats runs under a timeout (1 s, [WithStoreTimeout]). Scrapes at
//     the same time share one call, so a slow backend (even one ignoring
//     its context) never has more than one call running; a scrape waits
//     at most the timeout. An error, a timeout or a panic in Stats drops
//     the store_entries and store_bytes samples of that scrape and
//     increments store_errors_total, which the same scrape shows; the rest
//     of the scrape is served as usual.
//   - bytes_saved_total is the pipe's net Metrics().BytesSaved, which drops
//     when an expansion gives bytes back. A counter must not go down (a
//     drop reads as a reset, and rate() would count the whole total again),
//     so the metric holds the highest value it has shown (at least 0) until
//     the net passes it again.
//   - nil pipe or nil store leaves their metrics out rather than exporting
//     zeros that would read as real.
//   - Handler uses promhttp.HandlerFor with ContinueOnError (a failing
//     collector drops only its own samples) and serves at most 8 scrapes at
//     once (more get 503). It does not add the Go runtime or process
//     collectors; the caller can register them in the same registry.
//
// # Wiring
//
//	reg := prometheus.NewRegistry()
//	m, err := prom.New(reg, pipe.Metrics, store)
//	// pass m as the proxy's proxy.Observer
//	mux.Handle("GET /metrics", m.Handler())
package prom
