package clusters

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/palink/palink/yarn"
)

// EndpointCheck is one endpoint of a cluster as `palink config check
// --connect` tried it: how palink authenticates there, its TLS, and
// whether it answered.
type EndpointCheck struct {
	Cluster  string `json:"cluster"`
	Endpoint string `json:"endpoint"` // "rm", "rm web proxy", "sql gateway", "rm as team T"
	URL      string `json:"url"`
	// Auth is "kerberos PRINCIPAL", "simple USER", "basic USER" or "none".
	Auth string `json:"auth"`
	// TLS is "none" (http), "verified", "verified, client certificate" or
	// "not verified".
	TLS   string `json:"tls"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
	// Note says why an endpoint was not tried (no running Flink
	// application to reach through the proxy).
	Note string `json:"note,omitempty"`
}

// CheckEndpoints tries each endpoint of the cluster once: every RM's
// cluster info, the web proxy (the JobManager of a running Flink
// application, when there is one) and the SQL Gateway's info; and the
// active RM as each team with an identity of its own (auth.teams).
func (c *Cluster) CheckEndpoints(ctx context.Context) []EndpointCheck {
	var out []EndpointCheck
	checkAs := func(v *Cluster, endpoint, base string, try func() error) {
		e := EndpointCheck{Cluster: c.Name, Endpoint: endpoint, URL: base, Auth: v.authFor(base), TLS: v.tlsFor(base)}
		if err := try(); err != nil {
			e.Error = err.Error()
		} else {
			e.OK = true
		}
		e.Auth = v.authFor(base) // Kerberos may have been asked for on the way
		out = append(out, e)
	}
	check := func(endpoint, base string, try func() error) { checkAs(c, endpoint, base, try) }

	for _, a := range c.RM.Addresses() {
		check("rm", a, func() error {
			rm, err := yarn.NewResourceManager([]string{a}, c.opts)
			if err != nil {
				return err
			}
			_, err = rm.ClusterInfo(ctx)
			return err
		})
	}
	apps, err := c.RM.Applications(ctx, yarn.AppFilter{States: []string{yarn.AppRunning}, ApplicationTypes: []string{c.Cfg.ApplicationType}, Limit: 50})
	var app *yarn.Application
	for i := range apps {
		if strings.EqualFold(apps[i].TrackingUI, "ApplicationMaster") && apps[i].TrackingURL != "" {
			app = &apps[i]
			break
		}
	}
	switch {
	case app != nil:
		check("rm web proxy", app.TrackingURL, func() error {
			f, err := c.flink.WithBases(app.TrackingURL, "")
			if err != nil {
				return err
			}
			_, err = f.Overview(ctx)
			return err
		})
	default:
		note := "no running Flink application to reach through it"
		if err != nil {
			note = "the RM did not list the applications"
		}
		out = append(out, EndpointCheck{Cluster: c.Name, Endpoint: "rm web proxy", URL: strings.TrimSuffix(c.RM.Active(), "/") + "/proxy/<appId>/",
			Auth: c.authFor(c.RM.Active()), TLS: c.tlsFor(c.RM.Active()), Note: note})
	}
	if c.Gateway != nil {
		check("sql gateway", c.Gateway.Base(), func() error {
			_, err := c.Gateway.Info(ctx)
			return err
		})
	}
	for _, team := range c.Teams() {
		v := c.teams[team]
		checkAs(v, "rm as team "+team, v.RM.Active(), func() error {
			_, err := v.RM.ClusterInfo(ctx)
			return err
		})
	}
	return out
}

// authFor is how palink authenticates to base.
func (c *Cluster) authFor(base string) string {
	k := c.opts.Kerberos
	u, _ := url.Parse(base)
	switch {
	case k != nil && u != nil && k.Negotiates(u.Hostname()):
		return "kerberos " + k.Principal()
	case c.opts.Username != "":
		return "basic " + c.opts.Username
	case c.opts.SimpleAuthUser != "":
		return "simple " + c.opts.SimpleAuthUser
	}
	return "none"
}

// tlsFor describes TLS to base.
func (c *Cluster) tlsFor(base string) string {
	if !strings.HasPrefix(base, "https://") {
		return "none"
	}
	switch {
	case c.opts.InsecureSkipVerify:
		return "not verified"
	case c.opts.CertFile != "":
		return "verified, client certificate"
	}
	return "verified"
}

// String is the line `config check --connect` prints.
func (e EndpointCheck) String() string {
	result := "ok"
	switch {
	case e.Note != "":
		result = "not tried: " + e.Note
	case !e.OK:
		result = "FAILED: " + e.Error
	}
	return fmt.Sprintf("%s  %-12s  %s  auth %s  tls %s  %s", e.Cluster, e.Endpoint, e.URL, e.Auth, e.TLS, result)
}
