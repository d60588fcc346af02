package clusters

import (
	"fmt"
	"maps"
	"slices"
)

// teamViews builds a view of c for each team with an identity of its own
// on it: the same endpoints, clients logged in as the team's principal in
// a login context of their own (never c's, never process-wide), and the
// submissions' Flink login forced to the team's.
func (c *Cluster) teamViews() error {
	if len(c.Cfg.TeamKerberos) == 0 {
		return nil
	}
	if c.Cfg.Kerberos == nil {
		return fmt.Errorf("cluster %s: auth.teams needs auth.kerberos: the cluster's own identity reads its state", c.Name)
	}
	own := *c.Cfg.Kerberos
	c.Cfg.Deploy.Forced = withForced(c.Cfg.Deploy.Forced, flinkLogin(own))
	c.teams = map[string]*Cluster{}
	for _, team := range slices.Sorted(maps.Keys(c.Cfg.TeamKerberos)) {
		k := *c.Cfg.TeamKerberos[team]
		if k.Krb5Conf == "" {
			k.Krb5Conf = own.Krb5Conf
		}
		if k.Service == "" {
			k.Service = own.Service
		}
		cc := c.Cfg
		cc.Kerberos, cc.TeamKerberos = &k, nil
		cc.Deploy.Forced = withForced(c.Cfg.Deploy.Forced, flinkLogin(k))
		cc.Deploy.Env = maps.Clone(cc.Deploy.Env)
		if k.Keytab == "" && k.CCache != "" {
			if cc.Deploy.Env == nil {
				cc.Deploy.Env = map[string]string{}
			}
			cc.Deploy.Env["KRB5CCNAME"] = "FILE:" + k.CCache
		}
		v, err := NewCluster(cc)
		if err != nil {
			return fmt.Errorf("cluster %s, team %s: %w", c.Name, team, err)
		}
		v.Team, v.parent, v.Reads = team, c, c.Reads
		c.teams[team] = v
	}
	return nil
}

// As is the view of c that acts for team: c itself when the team has no
// identity of its own on the cluster (or team is "").
func (c *Cluster) As(team string) *Cluster {
	if v := c.teams[team]; v != nil {
		return v
	}
	return c
}

// Teams names the teams with an identity of their own on c.
func (c *Cluster) Teams() []string {
	return slices.Sorted(maps.Keys(c.teams))
}

// flinkLogin is the Flink client's Kerberos login as k: from its keytab,
// or from its credential cache (KRB5CCNAME, set with it).
func flinkLogin(k Kerberos) map[string]string {
	if k.Keytab != "" {
		return map[string]string{
			"security.kerberos.login.principal":        k.Principal,
			"security.kerberos.login.keytab":           k.Keytab,
			"security.kerberos.login.use-ticket-cache": "false",
		}
	}
	return map[string]string{
		"security.kerberos.login.principal":        k.Principal,
		"security.kerberos.login.use-ticket-cache": "true",
	}
}

func withForced(base, add map[string]string) map[string]string {
	out := maps.Clone(base)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, add)
	return out
}
