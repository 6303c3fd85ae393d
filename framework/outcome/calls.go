package outcome

import "sort"

// CallStats counts the calls of one protocol method to one plugin, over
// every process a plugin host started for it: the host counts them
// (host.Host.Calls), a run's manifest records them.
type CallStats struct {
	Plugin string `json:"plugin"` // the plugin's name
	Method string `json:"method"` // service and method, e.g. "LearnerService/Upload"
	Calls  int64  `json:"calls"`
	// Sent and Received are the bytes of the messages sent and received
	// (serialised, with gRPC's 5-byte message framing, without HTTP/2's);
	// SentMessages counts the messages sent (a streamed upload sends one
	// per chunk).
	Sent         int64 `json:"sent_bytes"`
	Received     int64 `json:"received_bytes"`
	SentMessages int64 `json:"sent_messages"`
}

// AddCalls sums two lists of call counts (of shards of a run) by plugin
// and method, sorted by plugin and method.
func AddCalls(a, b []CallStats) []CallStats {
	type key struct{ plugin, method string }
	at := map[key]int{}
	var out []CallStats
	for _, c := range append(append([]CallStats(nil), a...), b...) {
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
