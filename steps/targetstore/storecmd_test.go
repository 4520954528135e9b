package targetstore

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestCommandStore(t *testing.T) {
	ctx := context.Background()
	if err := (CommandStore{Down: "true", Up: "true"}).StoreDown(ctx); err != nil {
		t.Fatal(err)
	}
	err := CommandStore{Up: "echo refusing; exit 3"}.StoreUp(ctx)
	if err == nil || !strings.Contains(err.Error(), "STORE_UP_CMD") || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("failing command: err = %v", err)
	}
	err = CommandStore{Down: "echo started; sleep 10", Timeout: 200 * time.Millisecond}.StoreDown(ctx)
	if err == nil || !strings.Contains(err.Error(), "did not finish within 200ms") || !strings.Contains(err.Error(), "started") {
		t.Fatalf("slow command: err = %v", err)
	}
}
