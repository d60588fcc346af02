package sim

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// jar is a jar uploaded to a session cluster's JobManager (web submission).
type jar struct {
	id        string // "<uuid>_<file name>", as Flink names it
	name      string
	uploaded  time.Time
	mainClass string
	program   jarProgram // its classes, for jars/run's entry check
}

// maxJar bounds an upload; the bytes are only read for the manifest.
const maxJar = 256 << 20

// webSubmit reports whether the JobManager accepts jars: only session
// clusters do (per-job and application clusters disable web submission).
func webSubmit(a *app) bool { return a.mode == ModeSession }

func noWebSubmit(x *jmReq) jmAnswer {
	return jmAnswer{status: http.StatusNotFound, body: flinkErrors{Errors: []string{"Not found: " + x.r.URL.Path}}}
}

func jmJars(x *jmReq) jmAnswer {
	if !webSubmit(x.a) {
		return noWebSubmit(x)
	}
	files := []map[string]any{}
	for _, j := range x.a.jars {
		entry := []map[string]any{}
		if j.mainClass != "" {
			entry = append(entry, map[string]any{"name": j.mainClass, "description": "No description provided"})
		}
		files = append(files, map[string]any{"id": j.id, "name": j.name, "uploaded": j.uploaded.UnixMilli(), "entry": entry})
	}
	return ok(map[string]any{"address": "http://" + x.jm.addr, "files": files})
}

func jmDeleteJar(x *jmReq) jmAnswer {
	if !webSubmit(x.a) {
		return noWebSubmit(x)
	}
	id := x.r.PathValue("jarid")
	for i, j := range x.a.jars {
		if j.id == id {
			x.a.jars = append(x.a.jars[:i], x.a.jars[i+1:]...)
			return jmAnswer{status: http.StatusOK}
		}
	}
	return badRequestFlink("File " + id + " does not exist in /tmp/flink-web-upload.")
}

// upload is POST /jars/upload: one multipart file whose name ends in .jar.
func (m *jobManagers) upload() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		jm := jmOf(r)
		r.Body = http.MaxBytesReader(w, r.Body, maxJar)
		mr, err := r.MultipartReader()
		if err != nil {
			writeFlinkError(w, http.StatusBadRequest, "org.apache.flink.runtime.rest.handler.RestHandlerException: Exactly 1 file must be sent, received 0.")
			return
		}
		var name, mainClass string
		var program jarProgram
		files := 0
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				writeFlinkError(w, http.StatusBadRequest, "org.apache.flink.runtime.rest.handler.RestHandlerException: Bad multipart request: "+err.Error())
				return
			}
			if part.FileName() == "" {
				continue
			}
			files++
			name = path.Base(part.FileName())
			b, err := io.ReadAll(part)
			if err != nil {
				writeFlinkError(w, http.StatusRequestEntityTooLarge, "org.apache.flink.runtime.rest.handler.RestHandlerException: upload too large: "+err.Error())
				return
			}
			mainClass = manifestMainClass(b)
			program, _ = readJarProgram(b)
		}
		if files != 1 {
			writeFlinkError(w, http.StatusBadRequest, fmt.Sprintf("org.apache.flink.runtime.rest.handler.RestHandlerException: Exactly 1 file must be sent, received %d.", files))
			return
		}
		if !strings.HasSuffix(name, ".jar") {
			writeFlinkError(w, http.StatusBadRequest, "org.apache.flink.runtime.rest.handler.RestHandlerException: Only Jar files are allowed.")
			return
		}
		m.mu.Lock()
		now := m.clock.Now()
		a := jm.app
		m.yarn.advance(a, now)
		if a.jm != jm {
			m.mu.Unlock()
			resetConn(w)
			return
		}
		if !webSubmit(a) {
			m.mu.Unlock()
			writeFlinkError(w, http.StatusNotFound, "Not found: "+r.URL.Path)
			return
		}
		u := hex32(m.rng)
		id := fmt.Sprintf("%s-%s-%s-%s-%s_%s", u[:8], u[8:12], u[12:16], u[16:20], u[20:], name)
		a.jars = append(a.jars, &jar{id: id, name: name, uploaded: now, mainClass: mainClass, program: program})
		m.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]string{"filename": "/tmp/flink-web-" + u[:8] + "/flink-web-upload/" + id, "status": "success"})
	})
}

// manifestMainClass reads Main-Class (or program-class) from a jar's manifest.
func manifestMainClass(b []byte) string {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return ""
	}
	for _, f := range zr.File {
		if f.Name != "META-INF/MANIFEST.MF" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return ""
		}
		defer rc.Close()
		sc := bufio.NewScanner(rc)
		var main string
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if !ok {
				continue
			}
			switch strings.TrimSpace(k) {
			case "program-class":
				return strings.TrimSpace(v)
			case "Main-Class":
				main = strings.TrimSpace(v)
			}
		}
		return main
	}
	return ""
}

// jarRunBody is JarRunRequestBody.
type jarRunBody struct {
	EntryClass            string            `json:"entryClass"`
	ProgramArgsList       []string          `json:"programArgsList"`
	ProgramArgs           string            `json:"programArgs"`
	Parallelism           *int              `json:"parallelism"`
	JobID                 string            `json:"jobId"`
	AllowNonRestoredState *bool             `json:"allowNonRestoredState"`
	SavepointPath         string            `json:"savepointPath"`
	ClaimMode             string            `json:"claimMode"`
	RestoreMode           string            `json:"restoreMode"`
	FlinkConfiguration    map[string]string `json:"flinkConfiguration"`
}

// jmRunJar is POST /jars/{jarid}/run: a new job in this session cluster.
func jmRunJar(x *jmReq) jmAnswer {
	if !webSubmit(x.a) {
		return noWebSubmit(x)
	}
	var body jarRunBody
	if err := decodeBody(x.r, &body); err != nil {
		return badRequestFlink("Request did not match expected format JarRunRequestBody: " + err.Error())
	}
	q := x.r.URL.Query()
	id := x.r.PathValue("jarid")
	var jr *jar
	for _, j := range x.a.jars {
		if j.id == id {
			jr = j
		}
	}
	if jr == nil {
		return badRequestFlink("Jar file /tmp/flink-web-upload/" + id + " does not exist")
	}
	entry := firstNonEmpty(body.EntryClass, q.Get("entry-class"), jr.mainClass)
	if entry == "" {
		return badRequestFlink("Could not look up the main(String[]) method from the class : Neither a 'Main-Class', nor a 'program-class' entry was found in the jar file.")
	}
	if err := jr.program.checkEntry(entry); err != nil {
		return badRequestFlink(err.Error())
	}
	p := 0
	if body.Parallelism != nil {
		p = *body.Parallelism
	} else if s := q.Get("parallelism"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return badRequestFlink("Bad request, could not parse parameters: Conversion of query parameter parallelism failed for value " + s)
		}
		p = n
	}
	savepoint := firstNonEmpty(body.SavepointPath, q.Get("savepointPath"))
	allow := q.Get("allowNonRestoredState") == "true"
	if body.AllowNonRestoredState != nil {
		allow = *body.AllowNonRestoredState
	}
	if body.JobID != "" {
		if !reHex32.MatchString(body.JobID) {
			return badRequestFlink("Request did not match expected format JarRunRequestBody: jobId is not a 32-character hex string")
		}
		if _, taken := x.m.flink.byID[body.JobID]; taken {
			return restError(http.StatusConflict, "org.apache.flink.runtime.client.DuplicateJobSubmissionException",
				"Job has already been submitted. JobID "+body.JobID)
		}
	}
	conf := map[string]string{}
	for k, v := range body.FlinkConfiguration {
		conf[k] = v
	}
	name := firstNonEmpty(conf["pipeline.name"], entry[strings.LastIndex(entry, ".")+1:])
	j := x.m.flink.addJob(x.a, jobSpec{name: name, entryClass: entry, parallelism: p, config: conf,
		restorePath: savepoint, allowNonRestored: allow}, x.now)
	if body.JobID != "" {
		delete(x.m.flink.byID, j.id)
		j.id = body.JobID
		x.m.flink.byID[j.id] = j
	}
	return ok(map[string]string{"jobid": j.id})
}
