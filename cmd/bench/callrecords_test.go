package main

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/results"
)

// TestCallRecordsMirrorCallStats: results.CallRecord (the manifest's
// record, in a package without gRPC) mirrors host.CallStats field for
// field, JSON names included, and callRecords, the one place that
// converts one to the other, copies every field: a field added to one
// type and not the other, or not copied, fails here.
func TestCallRecordsMirrorCallStats(t *testing.T) {
	st, rt := reflect.TypeFor[host.CallStats](), reflect.TypeFor[results.CallRecord]()
	if st.NumField() != rt.NumField() {
		t.Fatalf("host.CallStats has %d fields, results.CallRecord %d", st.NumField(), rt.NumField())
	}
	for i := range st.NumField() {
		sf, rf := st.Field(i), rt.Field(i)
		if sf.Name != rf.Name || sf.Type != rf.Type || sf.Tag.Get("json") != rf.Tag.Get("json") {
			t.Errorf("field %d: host.CallStats %s %s %q, results.CallRecord %s %s %q", i, sf.Name, sf.Type, sf.Tag.Get("json"), rf.Name, rf.Type, rf.Tag.Get("json"))
		}
	}
	stats := host.CallStats{Plugin: "svm", Method: "LearnerService/Upload", Calls: 3, Sent: 5, Received: 7, SentMessages: 11}
	want, err := json.Marshal(stats)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(callRecords([]host.CallStats{stats})[0])
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("callRecords gives %s, want %s", got, want)
	}
}
