package main

import (
	"encoding/json"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/results"
)

// TestManifestRecordsCallStats: a manifest records the host's call counts
// (host.Host.Calls) as they are, one type (outcome.CallStats) for both,
// under the JSON names manifests have always used.
func TestManifestRecordsCallStats(t *testing.T) {
	stats := outcome.CallStats{Plugin: "svm", Method: "LearnerService/Upload", Calls: 3, Sent: 5, Received: 7, SentMessages: 11}
	got, err := json.Marshal(results.Manifest{Calls: []outcome.CallStats{stats}})
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Calls json.RawMessage }
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatal(err)
	}
	want := `[{"plugin":"svm","method":"LearnerService/Upload","calls":3,"sent_bytes":5,"received_bytes":7,"sent_messages":11}]`
	if string(m.Calls) != want {
		t.Errorf("manifest calls %s, want %s", m.Calls, want)
	}
}
