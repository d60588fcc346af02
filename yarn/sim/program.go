package sim

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"strings"
	"time"
)

// A JAR program Flink cannot start: its jar is missing, or its entry
// class is not in it. Flink finds out when it builds the program
// (PackagedProgram): in the client for a per-job submission, which then
// deploys nothing; in the JobManager for an application cluster, which
// then deregisters FAILED with the exception as YARN's diagnostics; in
// the JarRunHandler for a session's jars/run (400).

// programError is why a program cannot start, as Flink prints it: the
// ProgramInvocationException and its cause.
type programError struct{ trace string }

func (e *programError) Error() string { return e.trace }

// Is makes a program error an invalid request for the admin API (400).
func (e *programError) Is(target error) bool { return target == ErrInvalid }

// jarProgram is what the simulator reads of a jar: its classes and the
// manifest's entry class.
type jarProgram struct {
	classes map[string]bool
	main    string
}

// readJarProgram reads a jar's class list and manifest. A jar with no
// class files at all (a test's manifest-only stub) has no class list:
// any entry class runs from it.
func readJarProgram(b []byte) (jarProgram, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return jarProgram{}, err
	}
	p := jarProgram{main: manifestMainClass(b)}
	for _, f := range zr.File {
		if name, ok := strings.CutSuffix(f.Name, ".class"); ok {
			if p.classes == nil {
				p.classes = map[string]bool{}
			}
			p.classes[strings.ReplaceAll(name, "/", ".")] = true
		}
	}
	return p, nil
}

// checkEntry is Flink's check of the entry class of a jar: given, or the
// manifest's.
func (p jarProgram) checkEntry(class string) error {
	if class == "" {
		class = p.main
	}
	if class == "" {
		return &programError{"org.apache.flink.client.program.ProgramInvocationException: Neither a 'Main-Class', nor a 'program-class' entry was found in the jar file."}
	}
	if p.classes != nil && !p.classes[class] {
		return &programError{fmt.Sprintf("org.apache.flink.client.program.ProgramInvocationException: The program's entry point class '%s' was not found in the jar file.\n"+
			"\tat org.apache.flink.client.program.PackagedProgram.loadMainClass(PackagedProgram.java:481)\n"+
			"\tat org.apache.flink.client.program.PackagedProgram.<init>(PackagedProgram.java:153)\n"+
			"Caused by: java.lang.ClassNotFoundException: %s\n"+
			"\tat java.net.URLClassLoader.findClass(URLClassLoader.java:445)\n"+
			"\tat java.lang.ClassLoader.loadClass(ClassLoader.java:592)", class, class)}
	}
	return nil
}

// checkJarFile checks a submitted program's jar where the simulator can
// read it: a local path (or file: URL). A jar on a file system it cannot
// see (hdfs://, local:// in the container) is taken on trust.
func checkJarFile(jar, class string) error {
	path, local := strings.CutPrefix(jar, "file://")
	if !local && strings.Contains(jar, "://") {
		return nil
	}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return &programError{fmt.Sprintf("org.apache.flink.client.program.ProgramInvocationException: JAR file does not exist: %s\n"+
			"Caused by: java.io.FileNotFoundException: %s (No such file or directory)", path, path)}
	}
	if err != nil {
		return nil // unreadable to the simulator is not Flink's concern
	}
	p, err := readJarProgram(b)
	if err != nil {
		return nil // not a zip: a test's stand-in for a jar, taken on trust
	}
	return p.checkEntry(class)
}

// failApplication ends an application cluster whose program could not be
// built: the JobManager comes up, runs nothing, and deregisters FAILED
// with the exception.
func (y *yarnApps) failApplication(a *app, now time.Time, perr error) {
	y.events.schedule(a, now.Add(dAMRegistered+dJobCreated), func(t time.Time) {
		y.endApp(a, t, yarnFinished, finalFailed, perr.Error())
	})
}

// submitToSession is a client's submission into a running session
// cluster: a job of the session's application, as POST /jobs makes it.
// The caller holds the cluster lock.
func (f *flinkJobs) submitToSession(r SubmitRequest, conf map[string]string, now time.Time) (Submitted, error) {
	a := f.yarn.get(r.SessionApp, now)
	switch {
	case a == nil:
		return Submitted{}, fmt.Errorf("submit to session %s: %w", r.SessionApp, ErrNotFound)
	case a.mode != ModeSession || a.state != yarnRunning:
		return Submitted{}, fmt.Errorf("submit to session %s: %w: the application is no running session cluster (%s, %s)", r.SessionApp, ErrState, a.mode, a.state)
	}
	if r.JobID != "" {
		if _, taken := f.byID[r.JobID]; taken {
			return Submitted{}, &programError{"org.apache.flink.runtime.client.DuplicateJobSubmissionException: Job has already been submitted. JobID " + r.JobID}
		}
	}
	if r.Python == nil && r.Jar != "" {
		if err := checkJarFile(r.Jar, r.EntryClass); err != nil {
			return Submitted{}, err
		}
	}
	entry := r.EntryClass
	if py := r.Python; py != nil {
		entry = PythonDriver
		setPythonConfig(conf, py)
	}
	name := firstNonEmpty(r.JobName, conf["pipeline.name"], r.Name, entry[strings.LastIndex(entry, ".")+1:])
	j := f.addJob(a, jobSpec{name: name, entryClass: entry, python: r.Python, parallelism: r.Parallelism, config: conf,
		restorePath:      firstNonEmpty(r.SavepointPath, conf["execution.state-recovery.path"], conf["execution.savepoint.path"]),
		allowNonRestored: r.AllowNonRestoredState}, now)
	if r.JobID != "" {
		delete(f.byID, j.id)
		j.id = r.JobID
		f.byID[j.id] = j
	}
	return Submitted{AppID: a.id, JobID: j.id}, nil
}
