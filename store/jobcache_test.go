package store

import (
	"reflect"
	"testing"

	"github.com/palink/palink/model"
)

// TestCloneJobKnowsEveryReference: the job cache hands out copies made by
// cloneJob, which copies what each pointer, map and slice of model.Job
// holds. A field of such a kind added to model.Job must be copied there
// too, or callers would share it with the cache.
func TestCloneJobKnowsEveryReference(t *testing.T) {
	known := map[string]bool{"Config": true, "Charts": true, "Drift": true, "LatestCheckpoint": true, "LatestSavepoint": true, "CrashLoop": true}
	var walk func(path string, ty reflect.Type)
	walk = func(path string, ty reflect.Type) {
		for i := range ty.NumField() {
			f := ty.Field(i)
			switch f.Type.Kind() {
			case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface, reflect.Chan, reflect.Func:
				if path == "" && known[f.Name] {
					// cloneJob copies it; what it holds must hold no reference.
					inner := f.Type
					for inner.Kind() == reflect.Pointer || inner.Kind() == reflect.Slice || inner.Kind() == reflect.Map {
						inner = inner.Elem()
					}
					if inner.Kind() == reflect.Struct {
						walk(path+f.Name+".", inner)
					}
					continue
				}
				t.Errorf("model.Job.%s%s is a %s that cloneJob (store/jobcache.go) does not copy", path, f.Name, f.Type)
			case reflect.Struct:
				if f.Type.PkgPath() != "time" {
					walk(path+f.Name+".", f.Type)
				}
			}
		}
	}
	walk("", reflect.TypeOf(model.Job{}))
}
