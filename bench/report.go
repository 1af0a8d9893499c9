package bench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Summary is one strategy under one knob setting, over every case.
type Summary struct {
	Knobs       string  `json:"knobs"`
	Strategy    string  `json:"strategy"`
	TotalTokens int     `json:"total_tokens"`
	MainTokens  int     `json:"main_tokens"`
	Calls       int     `json:"llm_calls"`
	Recall      float64 `json:"recall"`
}

// Summarize adds up rows per knob setting and strategy, in row order.
func Summarize(rows []Row) []Summary {
	var out []Summary
	index := map[string]int{}
	found, facts := map[string]int{}, map[string]int{}
	for _, r := range rows {
		key := r.Knobs + "\x00" + r.Strategy
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, Summary{Knobs: r.Knobs, Strategy: r.Strategy})
		}
		out[i].TotalTokens += r.TotalTokens
		out[i].MainTokens += r.MainTokens
		out[i].Calls += r.Calls
		found[key] += r.Found
		facts[key] += r.Facts
	}
	for key, i := range index {
		out[i].Recall = float64(found[key]) / float64(max(facts[key], 1))
	}
	return out
}

// WriteTable writes a line naming the model ("model: oracle"), then rows
// as an aligned text table, then the per-strategy totals. Times are left
// out when withTime is false, so that two runs print the same bytes.
func WriteTable(w io.Writer, model Model, rows []Row, withTime bool) error {
	if _, err := fmt.Fprintf(w, "model: %s\n", model); err != nil {
		return err
	}
	head := []string{"knobs", "case", "strategy", "main tokens", "total tokens", "calls", "recall"}
	if withTime {
		head = append(head, "ms")
	}
	head = append(head, "note")
	table := [][]string{head}
	for _, r := range rows {
		line := []string{r.Knobs, r.Case, r.Strategy, strconv.Itoa(r.MainTokens), strconv.Itoa(r.TotalTokens), strconv.Itoa(r.Calls),
			fmt.Sprintf("%d/%d", r.Found, r.Facts)}
		if withTime {
			line = append(line, fmt.Sprintf("%.0f", r.Millis))
		}
		table = append(table, append(line, r.Note))
	}
	table = append(table, nil)
	table = append(table, []string{"knobs", "strategy (all cases)", "", "main tokens", "total tokens", "calls", "recall"})
	for _, s := range Summarize(rows) {
		table = append(table, []string{s.Knobs, s.Strategy, "", strconv.Itoa(s.MainTokens), strconv.Itoa(s.TotalTokens), strconv.Itoa(s.Calls),
			fmt.Sprintf("%.0f%%", 100*s.Recall)})
	}
	widths := map[int]int{}
	for _, line := range table {
		for i, cell := range line {
			widths[i] = max(widths[i], len(cell))
		}
	}
	for _, line := range table {
		var b strings.Builder
		for i, cell := range line {
			if i > 0 {
				b.WriteString("  ")
			}
			if i >= 3 && i <= 6 {
				fmt.Fprintf(&b, "%*s", widths[i], cell) // numbers right-aligned
			} else {
				fmt.Fprintf(&b, "%-*s", widths[i], cell)
			}
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " ")); err != nil {
			return err
		}
	}
	return nil
}

// WriteCSV writes rows as CSV, the model in the first column.
func WriteCSV(w io.Writer, model Model, rows []Row) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"model", "knobs", "case", "bytes", "strategy", "main_tokens", "total_tokens", "llm_calls", "found", "facts", "recall", "ms", "note"})
	for _, r := range rows {
		_ = cw.Write([]string{model.String(), r.Knobs, r.Case, strconv.Itoa(r.Bytes), r.Strategy, strconv.Itoa(r.MainTokens), strconv.Itoa(r.TotalTokens),
			strconv.Itoa(r.Calls), strconv.Itoa(r.Found), strconv.Itoa(r.Facts), fmt.Sprintf("%.4f", r.Recall), fmt.Sprintf("%.1f", r.Millis), r.Note})
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the model, rows and summaries as JSON.
func WriteJSON(w io.Writer, model Model, rows []Row) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Model     Model     `json:"model"`
		Rows      []Row     `json:"rows"`
		Summaries []Summary `json:"summaries"`
	}{model, rows, Summarize(rows)})
}

// Regression is a change against a baseline beyond its tolerance.
type Regression struct {
	Key, What string
}

// CompareBaseline reports rows whose recall dropped, or whose total tokens
// grew by more than tolerance (a fraction), against the baseline's rows of
// the same knobs, case and strategy, and every row that only one side has:
// a baseline row this run lacks ("missing from this run") and a row of this
// run the baseline lacks ("not in the baseline"), so that a run with other
// knobs (a changed --set) or other cases cannot pass for one without
// regressions. The result is sorted by key; a key's problems keep their
// order.
func CompareBaseline(baseline, rows []Row, tolerance float64) []Regression {
	key := func(r Row) string { return r.Knobs + "/" + r.Case + "/" + r.Strategy }
	base := map[string]Row{}
	for _, r := range baseline {
		base[key(r)] = r
	}
	ran := map[string]bool{}
	var out []Regression
	for _, r := range rows {
		k := key(r)
		ran[k] = true
		b, ok := base[k]
		if !ok {
			out = append(out, Regression{k, "not in the baseline (a row of this run that the baseline lacks)"})
			continue
		}
		if r.Recall < b.Recall-1e-9 {
			out = append(out, Regression{k, fmt.Sprintf("recall %d/%d, baseline %d/%d", r.Found, r.Facts, b.Found, b.Facts)})
		}
		if float64(r.TotalTokens) > float64(b.TotalTokens)*(1+tolerance) {
			out = append(out, Regression{k, fmt.Sprintf("total tokens %d, baseline %d (+%.0f%%, tolerance %.0f%%)",
				r.TotalTokens, b.TotalTokens, 100*(float64(r.TotalTokens)/float64(max(b.TotalTokens, 1))-1), 100*tolerance)})
		}
	}
	for _, b := range baseline {
		if k := key(b); !ran[k] {
			ran[k] = true // a baseline listing a row twice reports it once
			out = append(out, Regression{k, "missing from this run (a baseline row this run did not produce)"})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// WriteSVG draws fact recall against the tokens each strategy puts into
// the main model's context (log scale), one labelled point per strategy and
// knob setting, under a line naming the model. Total tokens, which count
// the extractor's and sub-agent's calls too, are in each point's tooltip
// and in the legend.
func WriteSVG(w io.Writer, model Model, rows []Row) error {
	sums := Summarize(rows)
	const width, height, left, right, top, bottom = 860, 500, 70, 300, 60, 60
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range sums {
		v := math.Log10(float64(max(s.MainTokens, 1)))
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	lo, hi = math.Floor(lo), math.Ceil(hi)
	if hi == lo {
		hi = lo + 1
	}
	x := func(t int) float64 {
		return left + (math.Log10(float64(max(t, 1)))-lo)/(hi-lo)*float64(width-left-right)
	}
	y := func(r float64) float64 { return top + (1-r)*float64(height-top-bottom) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="15">Fact recall vs tokens into the main context (all cases)</text>`+"\n", left)
	fmt.Fprintf(&b, `<text x="%d" y="42">model: %s</text>`+"\n", left, html.EscapeString(model.String()))
	for e := lo; e <= hi; e++ {
		px := left + (e-lo)/(hi-lo)*float64(width-left-right)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/><text x="%.1f" y="%d" text-anchor="middle">1e%d</text>`+"\n",
			px, top, px, height-bottom, px, height-bottom+18, int(e))
	}
	for _, r := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%.0f%%</text>`+"\n",
			left, y(r), width-right, y(r), left-6, y(r)+4, 100*r)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">tokens into the main context (log scale)</text>`+"\n", left+(width-left-right)/2, height-18)
	fmt.Fprintf(&b, `<text x="16" y="%d" transform="rotate(-90 16 %d)" text-anchor="middle">recall</text>`+"\n", top+(height-top-bottom)/2, top+(height-top-bottom)/2)
	fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#555">strategy: recall, main / total tokens</text>`+"\n", width-right+16, top-6)
	placed := []labelBox{}
	for i, s := range sums {
		c := strategyColor(s.Strategy, i)
		label := s.Strategy
		if s.Knobs != "default" {
			label += " (" + s.Knobs + ")"
		}
		px, py := x(s.MainTokens), y(s.Recall)
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="6" fill="%s" fill-opacity="0.85"><title>%s: recall %.0f%%, %d main-context tokens, %d total tokens</title></circle>`+"\n",
			px, py, c, html.EscapeString(label), 100*s.Recall, s.MainTokens, s.TotalTokens)
		lw, lx := 7*len(label), px+9
		if lx+float64(lw) > width-right { // the legend's side: write it to the left
			lx = px - 9 - float64(lw)
		}
		lx, ly := placeLabel(&placed, lx, py+4, lw)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="%s">%s</text>`+"\n", lx, ly, c, html.EscapeString(label))
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="5" fill="%s"/><text x="%d" y="%d">%s: %.0f%%, %s / %s</text>`+"\n",
			width-right+16, top+10+18*i, c, width-right+26, top+14+18*i, html.EscapeString(label), 100*s.Recall, short(s.MainTokens), short(s.TotalTokens))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// strategyColor is a strategy's colour in the chart; an unknown one (a
// future strategy) gets one by its position.
func strategyColor(s string, i int) string {
	colors := map[string]string{"truncate": "#d62728", "in-tool-pagination": "#9467bd", "full-chunked": "#1f77b4", "read-grep": "#2ca02c",
		"compress-expand": "#ff7f0e", "auto": "#17becf", "json-aware": "#8c564b", "head-tail": "#e377c2"}
	if c, ok := colors[s]; ok {
		return c
	}
	spare := []string{"#7f7f7f", "#bcbd22", "#393b79", "#637939"}
	return spare[i%len(spare)]
}

// labelBox is the box of a label already placed on the chart.
type labelBox struct{ x, y, w float64 }

// placeLabel places a label of width w at (x, y), or failing that at the
// nearest of y-14, y+14, y-28, y+28, ... where it overlaps no label placed
// before, and records it: points of close figures (auto and full-chunked,
// the three cutters) would otherwise print their names on top of each
// other, and a label moved only one way drifts far from its point.
func placeLabel(placed *[]labelBox, x, y float64, w int) (float64, float64) {
	free := func(y float64) bool {
		for _, p := range *placed {
			if x < p.x+p.w && p.x < x+float64(w) && math.Abs(y-p.y) < 13 {
				return false
			}
		}
		return true
	}
	at := y
	for step := range 40 {
		at = y + float64((step+1)/2*14)*float64(1-2*(step%2)) // 0, -14, +14, -28, ...
		if free(at) {
			break
		}
	}
	*placed = append(*placed, labelBox{x, at, float64(w)})
	return x, at
}

// short writes a token count as 950, 12.3k or 6.57M.
func short(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.2fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return strconv.Itoa(n)
}
