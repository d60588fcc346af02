package yarn

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jcmturner/gokrb5/v8/client"
	krbconfig "github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/spnego"
	"github.com/jcmturner/gokrb5/v8/types"
)

// Kerberos failures, by what a person does about them. Every error of a
// login or of a server refusing a ticket wraps ErrKerberos and, where
// known, one of the others.
var (
	// ErrKerberos: palink could not authenticate with Kerberos.
	ErrKerberos = errors.New("kerberos")
	// ErrKerberosRequired: a server asked for Kerberos (401 with
	// WWW-Authenticate: Negotiate) from a cluster configured without it.
	ErrKerberosRequired = errors.New("this cluster requires Kerberos")
	// ErrClockSkew: this host's clock and the KDC's (or the server's)
	// differ by more than Kerberos allows (5 minutes by default).
	ErrClockSkew = errors.New("clock skew too great")
	// ErrUnknownPrincipal: the KDC has no such principal (client or
	// service).
	ErrUnknownPrincipal = errors.New("principal unknown to the KDC")
	// ErrWrongKey: the keytab's key is not the principal's (the password
	// was changed or the keytab re-exported since).
	ErrWrongKey = errors.New("the keytab's key is not the KDC's")
	// ErrTicketExpired: the credential cache's ticket has expired and
	// palink has no keytab to get another.
	ErrTicketExpired = errors.New("ticket expired")
	// ErrKerberosConfig: the Kerberos configuration (krb5.conf) or the
	// keytab or credential cache cannot be used.
	ErrKerberosConfig = errors.New("kerberos configuration")
	// ErrKDCUnreachable: no KDC of the realm answered.
	ErrKDCUnreachable = errors.New("KDC unreachable")
)

// KerberosError is a Kerberos failure: what palink was doing, as whom, why
// (Kind, one of the sentinels above) and what to do about it (Hint).
type KerberosError struct {
	Principal string
	Op        string // "log in", "get a ticket for HTTP/rm1@REALM", …
	Kind      error
	Hint      string
	Err       error // the library's or the server's own words
}

// Error reads "kerberos: OP as PRINCIPAL: KIND: HINT (cause)".
func (e *KerberosError) Error() string {
	var b strings.Builder
	b.WriteString("kerberos: ")
	b.WriteString(e.Op)
	if e.Principal != "" {
		b.WriteString(" as ")
		b.WriteString(e.Principal)
	}
	if e.Kind != nil {
		b.WriteString(": ")
		b.WriteString(e.Kind.Error())
	}
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
	}
	if e.Err != nil {
		b.WriteString(" (")
		b.WriteString(clip(strings.TrimSpace(e.Err.Error()), 300))
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap exposes ErrKerberos and the kind.
func (e *KerberosError) Unwrap() []error {
	errs := []error{ErrKerberos}
	if e.Kind != nil {
		errs = append(errs, e.Kind)
	}
	return errs
}

// KerberosConfig is one Kerberos identity: its principal and where its keys
// or tickets are.
type KerberosConfig struct {
	// Principal is "user@REALM" (or "service/host@REALM").
	Principal string
	// Keytab holds the principal's keys: palink logs in from it and logs
	// in again before its tickets run out.
	Keytab string
	// CCache is a credential cache filled by the user's kinit, read again
	// at each login so that a new kinit is picked up; used when there is
	// no Keytab.
	CCache string
	// Krb5Conf is the Kerberos configuration (realms and their KDCs).
	Krb5Conf string
	// Service is the service part of the servers' principals; default HTTP.
	Service string
	// Now is the clock that decides renewals; default time.Now.
	Now func() time.Time
}

// renewAt is the share of a ticket's lifetime after which palink gets a
// new one: well before it ends, so that no request goes out with a ticket
// that expires on the way (StreamPark re-logs at the same point).
const renewAt = 0.9

// Kerberos is one login context: a principal's tickets, renewed in place,
// shared by the clients of one cluster (or one team) and by nobody else —
// there is no process-wide login, so two clusters never see each other's
// tickets. Safe for concurrent use.
type Kerberos struct {
	cfg   KerberosConfig
	user  string // the principal without its realm
	realm string
	krb5  *krbconfig.Config
	kt    *keytab.Keytab // nil when tickets come from CCache

	mu      sync.Mutex
	cl      *client.Client
	tgt     ticket
	tickets map[string]ticket // service tickets by SPN
	logins  int
	// negotiates lists the hosts that asked for SPNEGO, so that later
	// requests to them carry a ticket at once.
	negotiates map[string]bool
}

// ticket is a Kerberos ticket, its session key and its lifetime.
type ticket struct {
	tkt        messages.Ticket
	key        types.EncryptionKey
	start, end time.Time
}

// renewDue reports whether now is past renewAt of the ticket's lifetime.
func (t ticket) renewDue(now time.Time) bool {
	if t.end.IsZero() {
		return true
	}
	life := t.end.Sub(t.start)
	return !now.Before(t.start.Add(time.Duration(float64(life) * renewAt)))
}

// NewKerberos loads the configuration and the keytab of a login context.
// It does not talk to the KDC: the first request logs in.
func NewKerberos(cfg KerberosConfig) (*Kerberos, error) {
	if cfg.Service == "" {
		cfg.Service = "HTTP"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	k := &Kerberos{cfg: cfg, tickets: map[string]ticket{}, negotiates: map[string]bool{}}
	fail := func(kind error, hint string, err error) (*Kerberos, error) {
		return nil, &KerberosError{Principal: cfg.Principal, Op: "set up", Kind: kind, Hint: hint, Err: err}
	}
	user, realm, ok := strings.Cut(cfg.Principal, "@")
	if !ok || user == "" || realm == "" {
		return fail(ErrKerberosConfig, fmt.Sprintf("principal %q: write it user@REALM", cfg.Principal), nil)
	}
	k.user, k.realm = user, realm
	if _, err := os.Stat(cfg.Krb5Conf); err != nil {
		return fail(ErrKerberosConfig, fmt.Sprintf("Kerberos configuration %s is missing: install the site's krb5.conf there or set auth.kerberos.krb5_conf", cfg.Krb5Conf), nil)
	}
	c, err := krbconfig.Load(cfg.Krb5Conf)
	if err != nil {
		return fail(ErrKerberosConfig, fmt.Sprintf("cannot read Kerberos configuration %s", cfg.Krb5Conf), err)
	}
	k.krb5 = c
	switch {
	case cfg.Keytab != "":
		fi, err := os.Stat(cfg.Keytab)
		if err != nil {
			return fail(ErrKerberosConfig, fmt.Sprintf("keytab %s cannot be read", cfg.Keytab), err)
		}
		if fi.Mode().Perm()&0o007 != 0 {
			return fail(ErrKerberosConfig, fmt.Sprintf("keytab %s is readable by others (mode %#o): anyone who reads it can act as %s; chmod 600 it", cfg.Keytab, fi.Mode().Perm(), cfg.Principal), nil)
		}
		kt, err := keytab.Load(cfg.Keytab)
		if err != nil {
			return fail(ErrKerberosConfig, fmt.Sprintf("keytab %s cannot be read", cfg.Keytab), err)
		}
		if !keytabHas(kt, cfg.Principal) {
			return fail(ErrWrongKey, fmt.Sprintf("keytab %s has no key for %s", cfg.Keytab, cfg.Principal), nil)
		}
		k.kt = kt
	case cfg.CCache == "":
		return fail(ErrKerberosConfig, "give a keytab or a credential cache", nil)
	}
	return k, nil
}

func keytabHas(kt *keytab.Keytab, principal string) bool {
	for _, e := range kt.Entries {
		if e.Principal.String() == principal {
			return true
		}
	}
	return false
}

// Principal is the identity this context logs in as.
func (k *Kerberos) Principal() string { return k.cfg.Principal }

// User is the principal's short name (its first component), the user
// YARN sees and checks ACLs against.
func (k *Kerberos) User() string {
	u, _, _ := strings.Cut(k.user, "/")
	return u
}

// Logins is how many times this context logged in (from its keytab or
// credential cache) so far.
func (k *Kerberos) Logins() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.logins
}

// Login makes sure the context holds a TGT good for a while: from the
// keytab (a new login once renewAt of the last one's lifetime passed), or
// from the credential cache (read again, so that a kinit done meanwhile is
// picked up). It returns the TGT's end.
func (k *Kerberos) Login() (time.Time, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.ensureTGT(k.cfg.Now()); err != nil {
		return time.Time{}, err
	}
	return k.tgt.end, nil
}

func (k *Kerberos) ensureTGT(now time.Time) error {
	if k.cl != nil && !k.tgt.renewDue(now) {
		return nil
	}
	if k.kt == nil {
		if k.cl != nil && now.Before(k.tgt.end) {
			return nil // a ccache's ticket is used to its end: only kinit renews it
		}
		return k.loadCCache(now)
	}
	cl := client.NewWithKeytab(k.user, k.realm, k.kt, k.krb5, client.DisablePAFXFAST(true))
	req, err := messages.NewASReqForTGT(k.realm, k.krb5, cl.Credentials.CName())
	if err != nil {
		return k.loginErr("log in", err)
	}
	rep, err := cl.ASExchange(k.realm, req, 0)
	if err != nil {
		return k.loginErr("log in", err)
	}
	d := rep.DecryptedEncPart
	k.cl = cl
	k.tgt = ticket{tkt: rep.Ticket, key: d.Key, start: startOf(d.StartTime, d.AuthTime), end: d.EndTime}
	k.tickets = map[string]ticket{}
	k.logins++
	return nil
}

func (k *Kerberos) loadCCache(now time.Time) error {
	cc, err := credentials.LoadCCache(k.cfg.CCache)
	if err != nil {
		kind, hint := ErrKerberosConfig, fmt.Sprintf("cannot read credential cache %s", k.cfg.CCache)
		if errors.Is(err, os.ErrNotExist) {
			kind, hint = ErrTicketExpired, fmt.Sprintf("no ticket in %s; run kinit %s", k.cfg.CCache, k.cfg.Principal)
		}
		return &KerberosError{Principal: k.cfg.Principal, Op: "log in", Kind: kind, Hint: hint, Err: err}
	}
	if got := cc.DefaultPrincipal.PrincipalName.PrincipalNameString() + "@" + cc.DefaultPrincipal.Realm; got != k.cfg.Principal {
		return &KerberosError{Principal: k.cfg.Principal, Op: "log in", Kind: ErrKerberosConfig,
			Hint: fmt.Sprintf("credential cache %s holds tickets of %s; run kinit %s", k.cfg.CCache, got, k.cfg.Principal)}
	}
	cred, ok := cc.GetEntry(types.PrincipalName{NameType: nametype.KRB_NT_SRV_INST, NameString: []string{"krbtgt", k.realm}})
	if !ok {
		return &KerberosError{Principal: k.cfg.Principal, Op: "log in", Kind: ErrTicketExpired,
			Hint: fmt.Sprintf("no ticket in %s; run kinit %s", k.cfg.CCache, k.cfg.Principal)}
	}
	if !now.Before(cred.EndTime) {
		return &KerberosError{Principal: k.cfg.Principal, Op: "log in", Kind: ErrTicketExpired,
			Hint: fmt.Sprintf("ticket expired at %s; run kinit %s", cred.EndTime.Local().Format(time.DateTime+" MST"), k.cfg.Principal)}
	}
	var tgt messages.Ticket
	if err := tgt.Unmarshal(cred.Ticket); err != nil {
		return &KerberosError{Principal: k.cfg.Principal, Op: "log in", Kind: ErrKerberosConfig,
			Hint: fmt.Sprintf("credential cache %s holds a ticket palink cannot read", k.cfg.CCache), Err: err}
	}
	cl, err := client.NewFromCCache(cc, k.krb5, client.DisablePAFXFAST(true))
	if err != nil {
		return k.loginErr("log in", err)
	}
	k.cl = cl
	k.tgt = ticket{tkt: tgt, key: cred.Key, start: startOf(cred.StartTime, cred.AuthTime), end: cred.EndTime}
	k.tickets = map[string]ticket{}
	k.logins++
	return nil
}

func startOf(start, auth time.Time) time.Time {
	if start.IsZero() {
		return auth
	}
	return start
}

// SPN is the principal of the HTTP server at host: SERVICE/host.
func (k *Kerberos) SPN(host string) string { return k.cfg.Service + "/" + host }

// Token returns the value of an Authorization header for the server at
// host: "Negotiate " and a SPNEGO token holding a fresh authenticator for
// a ticket of SERVICE/host, logging in or getting the ticket first when
// needed.
func (k *Kerberos) Token(host string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	now := k.cfg.Now()
	if err := k.ensureTGT(now); err != nil {
		return "", err
	}
	spn := k.SPN(host)
	st, ok := k.tickets[spn]
	if !ok || st.renewDue(now) {
		princ := types.NewPrincipalName(nametype.KRB_NT_PRINCIPAL, spn)
		_, rep, err := k.cl.TGSREQGenerateAndExchange(princ, k.realm, k.tgt.tkt, k.tgt.key, false)
		if err != nil {
			return "", k.loginErr("get a ticket for "+spn+"@"+k.realm, err)
		}
		d := rep.DecryptedEncPart
		st = ticket{tkt: rep.Ticket, key: d.Key, start: startOf(d.StartTime, d.AuthTime), end: d.EndTime}
		k.tickets[spn] = st
	}
	neg, err := spnego.NewNegTokenInitKRB5(k.cl, st.tkt, st.key)
	if err != nil {
		return "", &KerberosError{Principal: k.cfg.Principal, Op: "make a SPNEGO token for " + spn, Err: err}
	}
	b, err := (&spnego.SPNEGOToken{Init: true, NegTokenInit: neg}).Marshal()
	if err != nil {
		return "", &KerberosError{Principal: k.cfg.Principal, Op: "make a SPNEGO token for " + spn, Err: err}
	}
	return "Negotiate " + base64.StdEncoding.EncodeToString(b), nil
}

// loginErr explains a failed exchange with the KDC. gokrb5 flattens the
// KDC's KRB-ERROR into text, so its error code is recognised by name.
func (k *Kerberos) loginErr(op string, err error) error {
	e := &KerberosError{Principal: k.cfg.Principal, Op: op, Err: err}
	msg := err.Error()
	has := func(ss ...string) bool {
		for _, s := range ss {
			if strings.Contains(msg, s) {
				return true
			}
		}
		return false
	}
	switch {
	case has("KRB_AP_ERR_SKEW", "clock skew with KDC too large"):
		e.Kind, e.Hint = ErrClockSkew, "this host's clock and the KDC's differ by more than Kerberos allows; synchronise the clock (chrony, ntp)"
	case has("KDC_ERR_C_PRINCIPAL_UNKNOWN"):
		e.Kind, e.Hint = ErrUnknownPrincipal, fmt.Sprintf("the KDC of %s has no principal %s; check auth.kerberos.principal", k.realm, k.cfg.Principal)
	case has("KDC_ERR_S_PRINCIPAL_UNKNOWN"):
		e.Kind, e.Hint = ErrUnknownPrincipal, "the KDC has no service principal for that server; address the server by the host name its principal carries (not an IP address or alias), or set auth.kerberos.service"
	case has("KDC_ERR_PREAUTH_FAILED", "KRB_AP_ERR_BAD_INTEGRITY", "client password/keytab incorrect", "KRB_AP_ERR_MODIFIED"):
		e.Kind, e.Hint = ErrWrongKey, fmt.Sprintf("keytab %s holds an old or another key of %s (password changed, or keytab exported again since?); get a fresh keytab", k.cfg.Keytab, k.cfg.Principal)
	case has("KRB_AP_ERR_TKT_EXPIRED", "KDC_ERR_TKT_EXPIRED"):
		e.Kind, e.Hint = ErrTicketExpired, fmt.Sprintf("run kinit %s", k.cfg.Principal)
	case has("Networking_Error", "failed to communicate with KDC", "could not get KDC"):
		e.Kind, e.Hint = ErrKDCUnreachable, fmt.Sprintf("no KDC of %s answered; check [realms] %s in %s and that the KDC is up", k.realm, k.realm, k.cfg.Krb5Conf)
	case has("Configuration_Error"):
		e.Kind, e.Hint = ErrKerberosConfig, fmt.Sprintf("check %s", k.cfg.Krb5Conf)
	}
	return e
}

// negotiateTransport signs requests with SPNEGO: at once to hosts that
// asked for it before (or are preset, the RMs), and otherwise in answer to
// a 401 with WWW-Authenticate: Negotiate, sending the request again with a
// ticket when its body can be replayed.
type negotiateTransport struct {
	base http.RoundTripper
	krb  *Kerberos
}

func (n *negotiateTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	host := req.URL.Hostname()
	if n.krb.asked(host) {
		return n.signed(req, host)
	}
	resp, err := n.base.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusUnauthorized || !negotiateChallenge(resp.Header) {
		return resp, err
	}
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		return resp, nil // cannot send it again; the next request is signed
	}
	n.krb.remember(host)
	resp.Body.Close()
	again := req
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		again = req.Clone(req.Context())
		again.Body = body
	}
	return n.signed(again, host)
}

func (n *negotiateTransport) signed(req *http.Request, host string) (*http.Response, error) {
	tok, err := n.krb.Token(host)
	if err != nil {
		return nil, err
	}
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", tok)
	resp, err := n.base.RoundTrip(r)
	if resp != nil {
		resp.Request = r
	}
	return resp, err
}

func (k *Kerberos) asked(host string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.negotiates[strings.ToLower(host)]
}

func (k *Kerberos) remember(host string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.negotiates[strings.ToLower(host)] = true
}

// negotiateChallenge reports whether a 401 asks for SPNEGO.
func negotiateChallenge(h http.Header) bool {
	for _, v := range h.Values("WWW-Authenticate") {
		if s := strings.TrimSpace(v); len(s) >= 9 && strings.EqualFold(s[:9], "Negotiate") {
			return true
		}
	}
	return false
}

// Negotiates reports whether palink authenticates to host with Kerberos:
// it is an RM, or it asked for SPNEGO.
func (k *Kerberos) Negotiates(host string) bool { return k.asked(host) }
