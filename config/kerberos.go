package config

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/jcmturner/gokrb5/v8/keytab"
)

// DefaultKrb5Conf is where Kerberos reads its configuration: $KRB5_CONFIG,
// else /etc/krb5.conf.
func DefaultKrb5Conf() string {
	if p := os.Getenv("KRB5_CONFIG"); p != "" {
		return p
	}
	return "/etc/krb5.conf"
}

// DefaultCCache is the user's credential cache as kinit writes it:
// $KRB5CCNAME (a FILE: cache), else /tmp/krb5cc_UID.
func DefaultCCache() string {
	if p := os.Getenv("KRB5CCNAME"); p != "" {
		return strings.TrimPrefix(p, "FILE:")
	}
	return fmt.Sprintf("/tmp/krb5cc_%d", os.Getuid())
}

func (k *Kerberos) applyDefaults() {
	k.Keytab = expandHome(k.Keytab)
	k.CCache = expandHome(k.CCache)
	k.Krb5Conf = expandHome(k.Krb5Conf)
	if k.Krb5Conf == "" {
		k.Krb5Conf = DefaultKrb5Conf()
	}
	if k.Keytab == "" && k.CCache == "" {
		k.CCache = DefaultCCache()
	}
	if k.Service == "" {
		k.Service = "HTTP"
	}
}

// inherit fills a team's identity from the cluster's: the paths expanded,
// the Kerberos configuration and the service its. Neither keytab nor
// ccache defaults: a team's identity is never the user's own ticket by
// accident.
func (k *Kerberos) inherit(cluster Kerberos) {
	k.Keytab = expandHome(k.Keytab)
	k.CCache = expandHome(k.CCache)
	k.Krb5Conf = expandHome(k.Krb5Conf)
	if k.Krb5Conf == "" {
		k.Krb5Conf = cluster.Krb5Conf
	}
	if k.Service == "" {
		k.Service = cluster.Service
	}
}

// checkTeams checks the teams' identities on a cluster as check does the
// cluster's, and what only they can get wrong.
func checkTeams(cl Cluster, p string, add func(string, bool, string, ...any)) {
	if len(cl.Auth.Teams) == 0 {
		return
	}
	if cl.Auth.Kerberos == nil {
		add(p+".auth.teams", false, "cluster %q: auth.teams needs auth.kerberos: the cluster's own identity reads its state", cl.Name)
		return
	}
	for _, team := range slices.Sorted(maps.Keys(cl.Auth.Teams)) {
		k, tp := cl.Auth.Teams[team], p+".auth.teams."+team
		switch {
		case !nameRE.MatchString(team) || len(team) > 64: // model.ValidTeamName's rule
			add(tp, false, "cluster %q: auth.teams: %q is no team name (letters, digits, '-', '_', '.')", cl.Name, team)
			continue
		case k == nil || k.Keytab == "" && k.CCache == "":
			add(tp, false, "cluster %q: auth.teams.%s needs keytab or ccache: the identity team %s acts as", cl.Name, team, team)
			continue
		}
		k.check(cl.Name, tp, func(path string, warn bool, format string, args ...any) {
			// check names auth.kerberos; here it is the team's.
			add(strings.Replace(path, tp+".auth.kerberos", tp, 1), warn,
				strings.Replace(format, "auth.kerberos", "auth.teams."+team, 1), args...)
		})
		if k.Principal == cl.Auth.Kerberos.Principal {
			add(tp+".principal", true, "cluster %q: team %s acts as %s, the cluster's own principal: give it its own or drop it", cl.Name, team, k.Principal)
		}
	}
}

// check finds what would make every login fail: the files, and a
// principal the keytab has no key for. A credential cache is only checked
// at login, where an expired ticket says how to renew it: the user may run
// kinit after this check.
func (k *Kerberos) check(cluster, p string, add func(string, bool, string, ...any)) {
	p += ".auth.kerberos"
	if k.Principal == "" {
		add(p, false, "cluster %q: auth.kerberos needs principal (user@REALM)", cluster)
	} else if _, realm, ok := strings.Cut(k.Principal, "@"); !ok || realm == "" {
		add(p+".principal", false, "cluster %q: auth.kerberos.principal %q has no realm: write it user@REALM", cluster, k.Principal)
	}
	if k.Keytab != "" && k.CCache != "" {
		add(p, false, "cluster %q: auth.kerberos: give keytab or ccache, not both", cluster)
	}
	if _, err := os.Stat(k.Krb5Conf); err != nil {
		add(p+".krb5_conf", false, "cluster %q: Kerberos configuration %s is missing: install the site's krb5.conf there or set auth.kerberos.krb5_conf", cluster, k.Krb5Conf)
	}
	if strings.ContainsAny(k.Service, "/@") || k.Service == "" {
		add(p+".service", false, "cluster %q: auth.kerberos.service %q: want the service part of SERVICE/host@REALM, like HTTP", cluster, k.Service)
	}
	if k.Keytab == "" {
		return
	}
	if err := CheckKeytab(k.Keytab, k.Principal); err != nil {
		add(p+".keytab", false, "cluster %q: %v", cluster, err)
		return
	}
	if fi, err := os.Stat(k.Keytab); err == nil && fi.Mode().Perm()&0o070 != 0 {
		add(p+".keytab", true, "cluster %q: keytab %s is readable by its group (mode %#o): every member can act as %s", cluster, k.Keytab, fi.Mode().Perm(), k.Principal)
	}
}

// CheckKeytab says what is wrong with a keytab for principal: unreadable,
// readable by others (anyone who reads it can act as the principal; a
// group that may read it is the site's choice, which check warns of), not
// a keytab, or without a key of principal.
func CheckKeytab(path, principal string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("keytab %s: %w", path, err)
	}
	if fi.Mode().Perm()&0o007 != 0 {
		return fmt.Errorf("keytab %s is readable by others (mode %#o): anyone who reads it can act as %s; chmod 600 it", path, fi.Mode().Perm(), principal)
	}
	kt, err := keytab.Load(path)
	if err != nil {
		return fmt.Errorf("keytab %s: cannot read it: %w", path, err)
	}
	if principal == "" {
		return nil
	}
	var have []string
	for _, e := range kt.Entries {
		p := e.Principal.String()
		if p == principal {
			return nil
		}
		if len(have) < 5 && !contains(have, p) {
			have = append(have, p)
		}
	}
	return fmt.Errorf("keytab %s has no key for %s (it has %s)", path, principal, strings.Join(have, ", "))
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
