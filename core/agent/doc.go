// Package agent lets every palink of a host use the one that owns the
// store: Serve answers api.Service over a unix socket for the palink that
// owns it (`palink agent`, or a TUI), and Dial returns a Client that is an
// api.Service too, so the TUI and the CLI cannot tell one from the other.
//
// The protocol is Go's net/rpc (gob) with one call, Palink.Call, which
// names a method of api.Service. Each method is declared once, in core/api
// (methods.go): who may call it, whether it writes, how long it may take,
// and which field of its argument names the caller. From that declaration
// and the method's signature, internal/apigen writes the client's stub and
// the server's handler (calls_gen.go, by `go generate ./core/agent`); the
// few methods declared Custom are written by hand (client.go, methods.go). The socket tells the agent which OS
// user is at the other end (SO_PEERCRED): that user is the issuer of
// actions and decides the role (viewer or operator); a client's own claim is
// ignored. Failures cross the socket as api.Code with their message, so
// errors.Is matches the same model sentinel on both sides. Where the socket
// lies and whom a client trusts there: socket.go.
//
// It imports core/api, core/logs (a client saves a log chunk by chunk) and
// model; never core's implementation, store or yarn.
package agent

//go:generate go run ./internal/apigen/gen calls_gen.go
