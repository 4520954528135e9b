package fakeserver

import "context"

// connKey is the context key of the client connection a request came on.
type connKey struct{}

// withConn names, in ctx, the connection its request came on: remote is
// the request's RemoteAddr, one per connection.
func withConn(ctx context.Context, remote string) context.Context {
	return context.WithValue(ctx, connKey{}, remote)
}

// ConnOf is the client connection ctx's request came on (its remote
// address), "" outside a request the Server answers. An HTTP/1.1 client
// sends concurrent requests on separate connections and one-after-another
// ones on the same: the race faults tell the two apart by it whatever the
// server's scheduling (fault.RaceWindow).
func ConnOf(ctx context.Context) string {
	c, _ := ctx.Value(connKey{}).(string)
	return c
}
