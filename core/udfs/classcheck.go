package udfs

import (
	"archive/zip"
	"fmt"
	"strings"

	"github.com/palink/palink/model"
)

// checkClass refuses a JVM function whose class is not in its jar, so that
// the deploy fails naming the function instead of the job failing on the
// cluster with a ClassNotFoundException. A file that is not a readable zip
// is not judged: the gateway will say what it makes of it.
func checkClass(s Shipped) error {
	if s.UDF.Language == model.UDFPython || strings.Contains(s.Path, "://") {
		return nil
	}
	r, err := zip.OpenReader(s.Path)
	if err != nil {
		return nil
	}
	defer r.Close()
	want := strings.ReplaceAll(s.UDF.Class, ".", "/") + ".class"
	for _, f := range r.File {
		if f.Name == want {
			return nil
		}
	}
	return fmt.Errorf("class %s is not in %s (no %s): %w", s.UDF.Class, s.Ref.Artifact, want, model.ErrNotFound)
}

// checkJar refuses a file that is not a zip archive, which every jar is:
// a misnamed file (a build log, a truncated download) would otherwise be
// registered and fail each job that calls the function, on the cluster.
func checkJar(path string) error {
	r, err := zip.OpenReader(path)
	if err != nil {
		return fmt.Errorf("%s is not a jar (zip) file: %v", path, err)
	}
	return r.Close()
}
