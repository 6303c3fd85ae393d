package sdk

import "testing"

func TestDatasetCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := newDatasetCache(100)
	c.put("a", Matrix{}, 40)
	c.put("b", Matrix{}, 40)
	c.get("a") // a is now the most recent
	c.put("c", Matrix{}, 40)
	if !c.has("a") || c.has("b") || !c.has("c") {
		t.Fatalf("after eviction: a=%v b=%v c=%v, want a and c kept", c.has("a"), c.has("b"), c.has("c"))
	}
	c.put("huge", Matrix{}, 1000)
	if !c.has("huge") || c.has("a") {
		t.Fatal("an entry larger than the budget must be kept alone")
	}
}
