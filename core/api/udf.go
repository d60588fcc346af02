package api

import (
	"context"

	"github.com/palink/palink/model"
)

// UDFService keeps the UDF registry: user-defined functions a SQL job of
// any cluster calls without creating them, which a deploy creates for it
// (CREATE TEMPORARY FUNCTION … USING JAR, or the jar on pipeline.jars).
type UDFService interface {
	// UDFs lists the registered functions, by name, each with the jobs
	// whose current SQL calls it.
	//palink:api role=viewer
	UDFs(ctx context.Context) ([]UDFView, error)
	// AddUDF registers a function. It fails with model.ErrExists when
	// the name is taken (unless Replace), model.ErrNotFound when its
	// project, artifact or file does not exist, and with the reason when
	// the request is incomplete.
	//palink:api role=admin writes what="add function" caller=UDF.Author
	AddUDF(ctx context.Context, r AddUDFRequest) (model.UDF, error)
	// RemoveUDF removes a function. While jobs call it, it is refused
	// (model.ErrRefused, naming them) unless Force.
	//palink:api role=admin writes what="remove function" caller=Issuer
	RemoveUDF(ctx context.Context, r RemoveUDFRequest) (UDFRemoval, error)
}

// UDFView is a registered function with the jobs that use it.
type UDFView struct {
	model.UDF
	Jobs []UDFUse
}

// UDFUse is a SQL job whose current script calls a registered function
// without creating it.
type UDFUse struct {
	JobID   string
	JobName string
	State   model.JobState
}

// AddUDFRequest registers a function; UDF.Author is filled by the service
// when empty.
type AddUDFRequest struct {
	UDF     model.UDF
	Replace bool
}

// RemoveUDFRequest removes a function.
type RemoveUDFRequest struct {
	Name   string
	Force  bool   // remove it although jobs call it
	Issuer string // filled by the service when empty
}

// UDFRemoval is what removing a function did: the jobs listed call it and
// will be refused at their next deploy's validation.
type UDFRemoval struct {
	UDF  model.UDF
	Jobs []UDFUse
}
