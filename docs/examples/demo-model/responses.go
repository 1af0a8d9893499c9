package main

// The Responses API (POST /v1/responses): the same turns as the other two APIs, as a response
// object with one output item, or as its event stream.

const (
	responsesID = "resp_demo"
	callItemID  = "fc_demo"
	msgItemID   = "msg_demo"
)

// responsesItem is the turn's output item: a function_call of expand_context, or a message
// with one output_text part. done is false for the item as output_item.added shows it (no
// arguments or content yet, status in_progress).
func responsesItem(t turn, done bool) obj {
	status, arguments, parts := "completed", args(t.Shadow), arr{obj{{"type", "output_text"}, {"text", t.Text}, {"annotations", arr{}}}}
	if !done {
		status, arguments, parts = "in_progress", "", arr{}
	}
	if t.Shadow != "" {
		return obj{{"type", "function_call"}, {"id", callItemID}, {"call_id", callID}, {"name", expandTool},
			{"arguments", arguments}, {"status", status}}
	}
	return obj{{"type", "message"}, {"id", msgItemID}, {"role", "assistant"}, {"status", status}, {"content", parts}}
}

// responsesObject is the response object: complete, or as response.created shows it.
func responsesObject(t turn, done bool) obj {
	status, output, usage := "completed", arr{responsesItem(t, true)}, any(obj{{"input_tokens", 10}, {"output_tokens", 5}, {"total_tokens", 15}})
	if !done {
		status, output, usage = "in_progress", arr{}, nil
	}
	return obj{{"id", responsesID}, {"object", "response"}, {"created_at", created}, {"status", status}, {"error", nil},
		{"model", t.Model}, {"output", output}, {"usage", usage}}
}

func responsesBody(t turn) []byte { return append(dumps(responsesObject(t, true)), '\n') }

// responsesStream is the event stream of the turn: each event named by its type, its data's
// type and sequence_number first.
func responsesStream(t turn) []byte {
	var out []byte
	seq := 0
	ev := func(typ string, rest ...kv) {
		out = event(out, typ, append(obj{{"type", typ}, {"sequence_number", seq}}, rest...))
		seq++
	}
	at := []kv{{"item_id", msgItemID}, {"output_index", 0}}
	ev("response.created", kv{"response", responsesObject(t, false)})
	ev("response.in_progress", kv{"response", responsesObject(t, false)})
	ev("response.output_item.added", kv{"output_index", 0}, kv{"item", responsesItem(t, false)})
	if t.Shadow != "" {
		at[0].v = callItemID
		for _, p := range pieces(args(t.Shadow)) {
			ev("response.function_call_arguments.delta", append(at, kv{"delta", p})...)
		}
		ev("response.function_call_arguments.done", append(at, kv{"name", expandTool}, kv{"arguments", args(t.Shadow)})...)
	} else {
		part := func(text string) kv {
			return kv{"part", obj{{"type", "output_text"}, {"text", text}, {"annotations", arr{}}}}
		}
		at = append(at, kv{"content_index", 0})
		ev("response.content_part.added", append(at, part(""))...)
		for _, p := range pieces(t.Text) {
			ev("response.output_text.delta", append(at, kv{"delta", p}, kv{"logprobs", arr{}})...)
		}
		ev("response.output_text.done", append(at, kv{"text", t.Text}, kv{"logprobs", arr{}})...)
		ev("response.content_part.done", append(at, part(t.Text))...)
	}
	ev("response.output_item.done", kv{"output_index", 0}, kv{"item", responsesItem(t, true)})
	ev("response.completed", kv{"response", responsesObject(t, true)})
	return out
}
