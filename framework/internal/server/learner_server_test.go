package server

import (
	"testing"

	"github.com/polyclass/polyclass/framework/plugin"
)

func TestDatasetCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := newDatasetCache(100)
	c.put("a", plugin.Matrix{}, 40)
	c.put("b", plugin.Matrix{}, 40)
	c.get("a") // a is now the most recent
	c.put("c", plugin.Matrix{}, 40)
	if !c.has("a") || c.has("b") || !c.has("c") {
		t.Fatalf("after eviction: a=%v b=%v c=%v, want a and c kept", c.has("a"), c.has("b"), c.has("c"))
	}
	c.put("huge", plugin.Matrix{}, 1000)
	if !c.has("huge") || c.has("a") {
		t.Fatal("an entry larger than the budget must be kept alone")
	}
}

// TestDatasetCacheRemove: remove returns the size it frees (Forget gives
// memory back to the system only past bigDataset), 0 for an unknown or
// already removed digest, and the budget counts the entry no more.
func TestDatasetCacheRemove(t *testing.T) {
	c := newDatasetCache(100)
	c.put("a", plugin.Matrix{}, 60)
	c.put("b", plugin.Matrix{}, 30)
	for _, tc := range []struct {
		digest string
		want   int64
	}{{"a", 60}, {"a", 0}, {"nope", 0}, {"b", 30}} {
		if got := c.remove(tc.digest); got != tc.want {
			t.Errorf("remove(%q) = %d, want %d", tc.digest, got, tc.want)
		}
	}
	if c.used != 0 {
		t.Errorf("used = %d after removing everything, want 0", c.used)
	}
}
