package tuitest

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// udfPart is the fake's UDF registry: what UDFs answers, in order.
type udfPart struct {
	f       *Fake
	UDFList []api.UDFView
}

// UDFs lists the registered functions.
func (p *udfPart) UDFs(ctx context.Context) ([]api.UDFView, error) {
	p.f.record("UDFs")
	if err := p.f.wait(ctx); err != nil {
		return nil, err
	}
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	return slices.Clone(p.UDFList), nil
}

// AddUDF registers a function.
func (p *udfPart) AddUDF(_ context.Context, r api.AddUDFRequest) (model.UDF, error) {
	p.f.record("AddUDF %s", r.UDF.Name)
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	p.UDFList = append(p.UDFList, api.UDFView{UDF: r.UDF})
	return r.UDF, nil
}

// RemoveUDF removes a function.
func (p *udfPart) RemoveUDF(_ context.Context, r api.RemoveUDFRequest) (api.UDFRemoval, error) {
	p.f.record("RemoveUDF %s", r.Name)
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	i := slices.IndexFunc(p.UDFList, func(v api.UDFView) bool { return v.Name == r.Name })
	if i < 0 {
		return api.UDFRemoval{}, fmt.Errorf("function %s: %w", r.Name, model.ErrNotFound)
	}
	v := p.UDFList[i]
	p.UDFList = slices.Delete(p.UDFList, i, i+1)
	return api.UDFRemoval{UDF: v.UDF, Jobs: v.Jobs}, nil
}

// fixtureUDFs are the fixture's registered functions: one of a project's
// artifact called by two SQL jobs, one jar without a signature, one
// Python file no job calls.
func fixtureUDFs(ago func(time.Duration) time.Time) []api.UDFView {
	return []api.UDFView{
		{UDF: model.UDF{Name: "mask_pan", Class: "com.acme.udf.MaskPan", Language: model.UDFJava, Project: "payments-dedup", ArtifactVersion: 2,
			Signature: "(STRING) -> STRING", Author: "ana", CreatedAt: ago(50 * time.Hour)},
			Jobs: []api.UDFUse{{JobID: "j001", JobName: "orders-enrich", State: model.StateRunning}, {JobID: "j006", JobName: "sessionize", State: model.StateFinished}}},
		{UDF: model.UDF{Name: "geohash", Class: "com.acme.geo.GeoHash", Language: model.UDFScala, Jar: "/opt/udf/geo-1.3.jar", Author: "bo", CreatedAt: ago(9 * time.Hour)},
			Jobs: []api.UDFUse{{JobID: "j010", JobName: "geo-enrich", State: model.StateDeployFailed}}},
		{UDF: model.UDF{Name: "score", Class: "fraud.score", Language: model.UDFPython, PyFile: "/srv/udf/fraud.py",
			Signature: "(DOUBLE, INT) -> DOUBLE", Author: "eve", CreatedAt: ago(2 * time.Hour)}},
	}
}
