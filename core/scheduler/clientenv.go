package scheduler

import (
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/palink/palink/core/clusters"
)

// clientPassed are the variables of palink's own environment that the
// exec deployer's `flink run` client gets: what Flink's own scripts and
// its Hadoop and Kerberos clients read to find the cluster, and nothing
// else. The client runs a JAR or PyFlink job's main() on this host (per-job
// and session targets compile the job here), which is code an operator
// chose, so palink's secrets (cluster passwords, --token-env tokens,
// whatever its environment holds) stay out of its reach.
var clientPassed = []string{
	"PATH", "HOME", "USER", "LOGNAME", "LANG", "TZ", "TMPDIR",
	"JAVA_HOME", "JAVA_TOOL_OPTIONS",
	"FLINK_HOME", "FLINK_CONF_DIR", "FLINK_LIB_DIR", "FLINK_OPT_DIR", "FLINK_PLUGINS_DIR", "FLINK_ENV_JAVA_OPTS",
	"HADOOP_HOME", "HADOOP_CONF_DIR", "HADOOP_CLASSPATH", "HADOOP_USER_NAME", "HADOOP_TOKEN_FILE_LOCATION",
	"YARN_CONF_DIR", "HBASE_CONF_DIR",
	"KRB5CCNAME", "KRB5_CONFIG",
	"PYFLINK_CLIENT_EXECUTABLE", "PYTHONPATH",
}

// clientEnv is the environment of the exec deployer's client on cluster
// cl: the passed variables palink has, LC_* settings, then the cluster's
// deploy.env, which the admin wrote and which wins; and for a proxy user
// (doAs), HADOOP_PROXY_USER, which Hadoop's client login reads.
func clientEnv(cl *clusters.Cluster, proxy string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "LC_") || slices.Contains(clientPassed, name) {
			env = append(env, kv)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(cl.Cfg.Deploy.Env)) {
		if k != "HADOOP_PROXY_USER" || proxy == "" {
			env = append(env, k+"="+cl.Cfg.Deploy.Env[k])
		}
	}
	if proxy != "" {
		env = append(env, "HADOOP_PROXY_USER="+proxy)
	}
	return env
}
