package results

import "sort"

// CallRecord counts the calls of one protocol method to one plugin, as a
// manifest records them (the plugin host's count of a run).
type CallRecord struct {
	Plugin string `json:"plugin"` // the plugin's name
	Method string `json:"method"` // service and method, e.g. "LearnerService/Upload"
	Calls  int64  `json:"calls"`
	// Sent and Received are the bytes of the messages sent and received;
	// SentMessages counts the messages sent.
	Sent         int64 `json:"sent_bytes"`
	Received     int64 `json:"received_bytes"`
	SentMessages int64 `json:"sent_messages"`
}

// AddCalls sums two lists of call counts (of shards of a run) by plugin
// and method, sorted by plugin and method.
func AddCalls(a, b []CallRecord) []CallRecord {
	type key struct{ plugin, method string }
	at := map[key]int{}
	var out []CallRecord
	for _, c := range append(append([]CallRecord(nil), a...), b...) {
		k := key{c.Plugin, c.Method}
		i, ok := at[k]
		if !ok {
			at[k] = len(out)
			out = append(out, c)
			continue
		}
		out[i].Calls += c.Calls
		out[i].Sent += c.Sent
		out[i].Received += c.Received
		out[i].SentMessages += c.SentMessages
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Plugin != out[j].Plugin {
			return out[i].Plugin < out[j].Plugin
		}
		return out[i].Method < out[j].Method
	})
	return out
}
