package testctx_test

import (
	"testing"

	"github.com/rlspec/rlspec/internal/testctx"
)

func TestContextEndsBeforeTheBinarysDeadline(t *testing.T) {
	ctx := testctx.Context(t)
	end, hasEnd := t.Deadline()
	got, ok := ctx.Deadline()
	if ok != hasEnd {
		t.Fatalf("context deadline set %v, binary deadline set %v", ok, hasEnd)
	}
	if ok && !got.Equal(end.Add(-testctx.Margin)) {
		t.Fatalf("context ends %v, want %v before %v", got, testctx.Margin, end)
	}
	if ctx.Err() != nil {
		t.Fatalf("context already done: %v", ctx.Err())
	}
}

func TestContextEndsWithTheTest(t *testing.T) {
	var ctx interface{ Err() error }
	t.Run("inner", func(t *testing.T) { ctx = testctx.Context(t) })
	if ctx.Err() == nil {
		t.Fatal("the context outlived its test")
	}
}
