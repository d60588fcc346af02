package scheduler

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// DefaultRunTemplate is the exec deployer's `flink run` command when the
// cluster config sets none. {dynamic} expands to palink's -D settings (name,
// tags, parallelism, queue, extra properties), {restore} to `-s PATH` when
// the job restores, {args} to the program arguments.
const DefaultRunTemplate = "flink run -t {target} -d {dynamic} {restore} -c {class} {jar} {args}"

// DefaultPythonRunTemplate is the `flink run` command of PyFlink jobs when
// the cluster config sets none. {python} expands to -py SCRIPT (or -pym
// MODULE) and the -pyfs, -pyreq, -pyarch and -pyexec options the spec sets.
const DefaultPythonRunTemplate = "flink run -t {target} -d {dynamic} {restore} {python} {args}"

// pythonVars are the PyFlink options of a run.
type pythonVars struct {
	Script       string // path of the entry script as the client reads it (-py)
	Module       string // -pym, instead of Script
	Files        []string
	Requirements string
	Archives     []string
	Executable   string
	ClientExec   string
}

// flags are the `flink run` options of a PyFlink program, in the order
// Flink's CliFrontendParser documents them.
func (p pythonVars) flags() []string {
	var out []string
	if p.Module != "" {
		out = append(out, "-pym", p.Module)
	} else {
		out = append(out, "-py", p.Script)
	}
	if len(p.Files) > 0 {
		out = append(out, "-pyfs", strings.Join(p.Files, ","))
	}
	if p.Requirements != "" {
		out = append(out, "-pyreq", p.Requirements)
	}
	if len(p.Archives) > 0 {
		out = append(out, "-pyarch", strings.Join(p.Archives, ","))
	}
	if p.Executable != "" {
		out = append(out, "-pyexec", p.Executable)
	}
	if p.ClientExec != "" {
		out = append(out, "-pyclientexec", p.ClientExec)
	}
	return out
}

// runVars are the values a run template is expanded with.
type runVars struct {
	Target      string
	Name        string
	Tags        []string
	Parallelism int
	Queue       string
	Restore     string
	Class       string
	Jar         string
	Args        []string
	Properties  map[string]string
	// ClaimMode ("" for the cluster's) and AllowNonRestored go with Restore.
	ClaimMode        string
	AllowNonRestored bool
	Python           *pythonVars // set for PyFlink jobs: {python} expands to its flags
}

// expandRunTemplate turns a template into argv. The template is split like a
// shell would split it (quotes group words), but no shell ever runs it, so
// job names and arguments cannot inject commands. List placeholders
// ({dynamic}, {restore}, {args}, {python}) must stand alone as words.
func expandRunTemplate(tmpl string, v runVars) ([]string, error) {
	words, err := splitWords(tmpl)
	if err != nil {
		return nil, fmt.Errorf("run command template: %w", err)
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("run command template is empty")
	}
	scalar := map[string]string{
		"{target}": v.Target, "{name}": v.Name, "{tags}": strings.Join(v.Tags, ","),
		"{parallelism}": fmt.Sprint(v.Parallelism), "{queue}": v.Queue,
		"{class}": v.Class, "{jar}": v.Jar, "{savepoint}": v.Restore,
	}
	var out []string
	for _, w := range words {
		switch w {
		case "{dynamic}":
			out = append(out, dynamicFlags(v)...)
			continue
		case "{restore}":
			if v.Restore != "" {
				out = append(out, "-s", v.Restore)
				if v.AllowNonRestored {
					out = append(out, "-n")
				}
				if v.ClaimMode != "" {
					// Both names: Flink reads the one it knows (1.20
					// renamed it) and ignores the other.
					out = append(out, "-Dexecution.savepoint-restore-mode="+v.ClaimMode,
						"-Dexecution.state-recovery.claim-mode="+v.ClaimMode)
				}
			}
			continue
		case "{args}":
			out = append(out, v.Args...)
			continue
		case "{python}":
			if v.Python == nil {
				return nil, fmt.Errorf("run command template: {python} is for PyFlink jobs")
			}
			out = append(out, v.Python.flags()...)
			continue
		}
		for k, val := range scalar {
			w = strings.ReplaceAll(w, k, val)
		}
		if m := placeholderRE.FindString(w); m != "" {
			return nil, fmt.Errorf("run command template: unknown placeholder %s", m)
		}
		if w == "" {
			continue // an empty optional value such as {queue}
		}
		out = append(out, w)
	}
	return out, nil
}

var placeholderRE = regexp.MustCompile(`\{[a-z_]+\}`)

func dynamicFlags(v runVars) []string {
	props := map[string]string{}
	for k, val := range v.Properties {
		props[k] = val
	}
	props["yarn.application.name"] = v.Name
	props["pipeline.name"] = v.Name
	if len(v.Tags) > 0 {
		props["yarn.tags"] = strings.Join(v.Tags, ",")
	}
	if v.Parallelism > 0 {
		props["parallelism.default"] = fmt.Sprint(v.Parallelism)
	}
	if v.Queue != "" {
		props["yarn.application.queue"] = v.Queue
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, "-D"+k+"="+props[k])
	}
	return out
}

// splitWords splits s into words as a POSIX shell would for plain words,
// single and double quotes and backslash escapes; nothing is expanded.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' at column %d", i+1)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unclosed \" in template")
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

var (
	appIDRE = regexp.MustCompile(`\bapplication_\d+_\d+\b`)
	// The Flink CLI prints "Job has been submitted with JobID <hex>"
	// (CliFrontend / ClientUtils) in detached and attached mode.
	jobIDRE = regexp.MustCompile(`(?i)JobID\s+([0-9a-f]{32})\b`)
)

// parseRunOutput finds the YARN application id and the Flink job id in the
// output of `flink run`. Application mode prints no job id; that is not an
// error (sync finds the job on the JobManager).
func parseRunOutput(out string) (appID, jobID string) {
	// The last application id printed is the one submitted (earlier lines can
	// mention a session being looked up).
	if ids := appIDRE.FindAllString(out, -1); len(ids) > 0 {
		appID = ids[len(ids)-1]
	}
	if m := jobIDRE.FindStringSubmatch(out); m != nil {
		jobID = m[1]
	}
	return appID, jobID
}
