package sim

import (
	"context"
	"encoding/base64"
	"fmt"
	"html"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/service"
	"github.com/jcmturner/gokrb5/v8/spnego"
)

// Kerberos is the simulator's secure mode: the RMs (REST API and web
// proxy) sit behind an authentication filter that requires SPNEGO, as
// Hadoop's AuthenticationFilter with the kerberos handler does, and the RM
// enforces application ACLs on kills.
type Kerberos struct {
	// Keytab is the RM's keytab: the keys of HTTP/<host>@REALM (Hadoop's
	// yarn.resourcemanager.webapp.spnego-keytab-file). Tickets for any
	// principal in it are accepted.
	Keytab string
	// Host is the name in the RMs' URLs (their tracking URLs too), which
	// clients build the service principal from; default "localhost".
	Host string
	// MaxClockSkew is how far a ticket's times may be off; default 5m,
	// Kerberos' own default.
	MaxClockSkew time.Duration
	// Admins may modify every application (yarn.admin.acl); an
	// application's owner may modify it too, nobody else.
	Admins []string
	// ProxyUsers lists, by a principal's short name, whom it may act for
	// with doAs (hadoop.proxyuser.NAME.users); "*" is everyone.
	ProxyUsers map[string][]string
}

// authFilter is the RMs' authentication filter in secure mode.
type authFilter struct {
	kt  *keytab.Keytab
	cfg Kerberos
}

func newAuthFilter(k Kerberos) (*authFilter, error) {
	kt, err := keytab.Load(k.Keytab)
	if err != nil {
		return nil, fmt.Errorf("secure mode: load keytab %s: %w", k.Keytab, err)
	}
	if k.MaxClockSkew <= 0 {
		k.MaxClockSkew = 5 * time.Minute
	}
	return &authFilter{kt: kt, cfg: k}, nil
}

// host is the name in the RMs' URLs.
func (f *authFilter) host() string {
	if f.cfg.Host == "" {
		return "localhost"
	}
	return f.cfg.Host
}

// callerKey carries the authenticated caller (after doAs) to the handlers.
type callerKey struct{}

// caller is who a request acts as: the authenticated principal's short
// name, or the user it acts for with doAs.
func caller(r *http.Request) (string, bool) {
	u, ok := r.Context().Value(callerKey{}).(string)
	return u, ok
}

// wrap answers like Hadoop's AuthenticationFilter: 401 with
// WWW-Authenticate: Negotiate when no token came, 403 with the GSS failure
// when the token does not validate, and doAs checked against the proxy
// users (403 otherwise). The simulator's /sim/ API is not Hadoop's and
// stays open.
func (f *authFilter) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/sim/") {
			next.ServeHTTP(w, r)
			return
		}
		kind, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if kind != "Negotiate" || tok == "" {
			w.Header().Set("WWW-Authenticate", "Negotiate")
			jettyError(w, r, http.StatusUnauthorized, "Authentication required")
			return
		}
		user, err := f.validate(tok)
		if err != nil {
			jettyError(w, r, http.StatusForbidden, "GSSException: Failure unspecified at GSS-API level (Mechanism level: "+err.Error()+")")
			return
		}
		if doAs := r.URL.Query().Get("doAs"); doAs != "" {
			allowed := f.cfg.ProxyUsers[user]
			if !slices.Contains(allowed, "*") && !slices.Contains(allowed, doAs) {
				jettyError(w, r, http.StatusForbidden, fmt.Sprintf("User: %s is not allowed to impersonate %s", user, doAs))
				return
			}
			user = doAs
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), callerKey{}, user)))
	})
}

// validate checks a SPNEGO token with the RM's keytab and returns the
// client's short name.
func (f *authFilter) validate(tok string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(tok)
	if err != nil {
		return "", fmt.Errorf("defective token: %v", err)
	}
	var st spnego.SPNEGOToken
	if err := st.Unmarshal(b); err != nil {
		return "", fmt.Errorf("defective token: %v", err)
	}
	s := spnego.SPNEGOService(f.kt, service.MaxClockSkew(f.cfg.MaxClockSkew), service.DecodePAC(false))
	ok, ctx, status := s.AcceptSecContext(&st)
	if status.Code != gssapi.StatusComplete || !ok {
		return "", fmt.Errorf("%s", status.Message)
	}
	id, _ := ctx.Value(ctxCredentials).(*credentials.Credentials)
	if id == nil {
		return "", fmt.Errorf("no identity in the token")
	}
	name, _, _ := strings.Cut(id.UserName(), "/")
	return name, nil
}

// ctxCredentials is the key under which gokrb5's SPNEGO service puts the
// client's credentials in its context.
const ctxCredentials = "github.com/jcmturner/gokrb5/v8/ctxCredentials"

// mayModify is the RM's MODIFY_APP check: the owner or an admin.
func (f *authFilter) mayModify(user string, a *app) bool {
	return user == a.user || slices.Contains(f.cfg.Admins, user) || slices.Contains(f.cfg.Admins, "*")
}

// jettyError writes an error page the way Hadoop's Jetty does: the reason
// in the title.
func jettyError(w http.ResponseWriter, r *http.Request, status int, reason string) {
	w.Header().Set("Content-Type", "text/html;charset=iso-8859-1")
	w.Header().Set("Cache-Control", "must-revalidate,no-cache,no-store")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<html>\n<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html;charset=utf-8\"/>\n<title>Error %d %s</title>\n</head>\n<body><h2>HTTP ERROR %d</h2>\n<p>Problem accessing %s. Reason:\n<pre>    %s</pre></p>\n</body>\n</html>\n",
		status, html.EscapeString(reason), status, html.EscapeString(r.URL.Path), html.EscapeString(reason))
}
