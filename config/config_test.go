package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

const good = `
store: /tmp/palink-test.db
sync:
  interval: 5s
clusters:
  - name: prod
    protected: true
    rm: [http://rm1:8088, http://rm2:8088]
    sql_gateway: http://gw:8083
    deploy:
      mode: yarn-per-job
      savepoint_dir: hdfs:///flink/savepoints
  - name: staging
    rm: [http://rm-staging:8088]
    sql_gateway: http://gw-staging:8083
    deploy:
      mode: yarn-session
      session_app: application_1730_0001
`

func TestParseGoodConfigAppliesDefaults(t *testing.T) {
	c, warns, err := Parse("config.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 0 {
		t.Errorf("unexpected warnings: %v", warns)
	}
	if c.Sync.Interval.D() != 5*time.Second || c.Sync.Concurrency != 32 {
		t.Errorf("sync = %+v", c.Sync)
	}
	prod, ok := c.Cluster("prod")
	if !ok || !prod.Protected || len(prod.RM) != 2 || prod.FlinkAccess != "proxy" || prod.ApplicationType != "Apache Flink" {
		t.Errorf("prod = %+v", prod)
	}
	if prod.Deploy.JarDeployer != "exec" {
		t.Errorf("per-job jar deployer = %q, want exec", prod.Deploy.JarDeployer)
	}
	st, _ := c.Cluster("staging")
	if st.Deploy.JarDeployer != "rest" {
		t.Errorf("session jar deployer = %q, want rest", st.Deploy.JarDeployer)
	}
	if !*c.Restart.Enabled || c.Restart.MaxAttempts != 3 {
		t.Errorf("restart defaults = %+v", c.Restart)
	}
}

func TestCheckPointsAtTheBadLine(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       string // "file:line: error: fragment"
	}{
		{"unknown field", "clusters:\n  - name: a\n    rm: [http://x:1]\n    rn: [http://y:1]\n", "c.yaml:4: error: field rn not found"},
		{"bad url", "clusters:\n  - name: a\n    rm:\n      - http://ok:1\n      - ftp://rm2\n", "c.yaml:5: error: cluster \"a\": rm \"ftp://rm2\": want http"},
		{"duplicate name", "clusters:\n  - name: a\n    rm: [http://x:1]\n  - name: a\n    rm: [http://y:1]\n", "c.yaml:4: error: cluster name \"a\" is used twice (first at line 2)"},
		{"bad duration", "sync:\n  interval: soon\nclusters:\n  - name: a\n    rm: [http://x:1]\n", "c.yaml:2: error: \"soon\" is not a duration"},
		{"session without app", "clusters:\n  - name: a\n    rm: [http://x:1]\n    deploy:\n      mode: yarn-session\n", "c.yaml:5: error: cluster \"a\": deploy.mode yarn-session needs"},
		{"credentials in url", "clusters:\n  - name: a\n    rm: [\"http://u:secret@x:1\"]\n", "credentials in the URL"},
		{"syntax", "clusters:\n  - name: a\n\trm: x\n", "c.yaml:2: error: found a tab character that violates indentation"},
		{"no clusters", "", "no clusters"},
		{"negative backoff", "restart_policy:\n  backoff: -5s\nclusters:\n  - name: a\n    rm: [http://x:1]\n", "c.yaml:2: error: restart_policy.backoff -5s is negative"},
		{"negative window", "restart_policy:\n  window: -1m\nclusters:\n  - name: a\n    rm: [http://x:1]\n", "c.yaml:2: error: restart_policy.window -1m0s is negative"},
		{"negative savepoint age", "savepoints:\n  interval: 6h\n  max_restore_age: -1h\nclusters:\n  - name: a\n    rm: [http://x:1]\n", "c.yaml:3: error: savepoints.max_restore_age -1h0m0s is negative"},
		{"negative savepoint count", "savepoints:\n  max_count: -2\nclusters:\n  - name: a\n    rm: [http://x:1]\n", "c.yaml:2: error: savepoints.max_count must not be negative"},
		{"backoff above max", "restart_policy:\n  backoff: 10m\n  max_backoff: 1m\nclusters:\n  - name: a\n    rm: [http://x:1]\n", "c.yaml:2: error: restart_policy.backoff 10m0s is above max_backoff 1m0s"},
		{"empty password_env", "clusters:\n  - name: a\n    rm: [http://x:1]\n    auth:\n      user: ops\n      password_env: PALINK_TEST_UNSET_PW\n", "c.yaml:6: error: cluster \"a\": environment variable PALINK_TEST_UNSET_PW (auth.password_env) is empty or unset"},
		{"relative socket", "socket: run/agent.sock\nclusters:\n  - name: a\n    rm: [http://x:1]\n", "c.yaml:1: error: socket \"run/agent.sock\": use an absolute path"},
		{"debug database not jdbc", "debug:\n  databases:\n    \"jdbc:mysql://prod:3306/app\": \"mysql://u:secret@staging/app\"\nclusters:\n  - name: a\n    rm: [http://x:1]\n", "c.yaml:2: error: debug.databases: \"mysql://…@staging/app\" is not a JDBC url"},
		{"bad flink version", "clusters:\n  - name: a\n    rm: [http://x:1]\n    flink_version: latest\n", "c.yaml:4: error: cluster \"a\": flink_version \"latest\": want major.minor"},
		{"bad group", "socket: /run/palink/agent.sock\nagent:\n  group: \"ops team\"\nclusters:\n  - name: a\n    rm: [http://x:1]\n", "c.yaml:3: error: agent.group \"ops team\" is not a group name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Parse("c.yaml", []byte(tc.yaml))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("error leaks a secret: %q", err)
			}
			var ps Problems
			if !errors.As(err, &ps) {
				t.Errorf("error is %T, want Problems", err)
			}
		})
	}
}

func TestPasswordFromEnvNeverInConfigDump(t *testing.T) {
	t.Setenv("PALINK_TEST_PW", "hunter2")
	c, _, err := Parse("c.yaml", []byte("clusters:\n  - name: a\n    rm: [http://x:1]\n    sql_gateway: http://g:1\n    auth:\n      user: ops\n      password_env: PALINK_TEST_PW\n"))
	if err != nil {
		t.Fatal(err)
	}
	pw, err := c.Clusters[0].Auth.Password()
	if err != nil || pw != "hunter2" {
		t.Fatalf("Password() = %q, %v", pw, err)
	}
	path := t.TempDir() + "/out.yaml"
	if err := c.Write(path); err != nil {
		t.Fatal(err)
	}
	back, _, err := Load(path)
	if err != nil {
		t.Fatalf("written config does not load: %v", err)
	}
	if back.Clusters[0].Auth.PasswordEnv != "PALINK_TEST_PW" {
		t.Errorf("round trip lost password_env")
	}
}

// TestAgentGroupNeedsASocket: a group for the default socket reaches no
// one, since that socket lies in its user's private directory.
func TestAgentGroupNeedsASocket(t *testing.T) {
	base := "clusters:\n  - name: a\n    rm: [http://x:1]\n    sql_gateway: http://g:1\n"
	c, warns, err := Parse("c.yaml", []byte("agent:\n  group: palink\n"+base))
	if err != nil {
		t.Fatal(err)
	}
	if c.Agent.Group != "palink" || len(warns) != 1 || !strings.Contains(warns[0].Error(), "c.yaml:2: warning: agent.group \"palink\" without socket") {
		t.Errorf("group %q, warnings %v", c.Agent.Group, warns)
	}
	c, warns, err = Parse("c.yaml", []byte("socket: ~/palink.sock\nagent:\n  group: palink\n"+base))
	if err != nil || len(warns) != 0 || !strings.HasSuffix(c.Socket, "/palink.sock") || strings.HasPrefix(c.Socket, "~") {
		t.Errorf("socket %q, warnings %v, %v", c.Socket, warns, err)
	}
}

func TestDebugSamplesAreFromTheConfigFile(t *testing.T) {
	c, _, err := Parse("/etc/palink/config.yaml", []byte("debug:\n  samples: [samples, /srv/data]\n  databases:\n    \"jdbc:mysql://prod:3306/app\": \"jdbc:sqlite:/srv/dim.db\"\nclusters:\n  - name: a\n    rm: [http://x:1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.DebugSamples(), ","); got != "/etc/palink/samples,/srv/data" {
		t.Errorf("samples %s", got)
	}
	if c.Debug.Databases["jdbc:mysql://prod:3306/app"] != "jdbc:sqlite:/srv/dim.db" {
		t.Errorf("databases %v", c.Debug.Databases)
	}
}
