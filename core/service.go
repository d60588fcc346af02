package core

import "github.com/palink/palink/core/api"

// The Service API is declared in core/api; these aliases let core and its
// callers name it as core.Service.
type (
	Service          = api.Service
	JobFilter        = api.JobFilter
	CommandFilter    = api.CommandFilter
	JobView          = api.JobView
	Figures          = api.Figures
	JobDetail        = api.JobDetail
	LiveJob          = api.LiveJob
	Vertex           = api.Vertex
	CheckpointInfo   = api.CheckpointInfo
	ExceptionInfo    = api.ExceptionInfo
	CreateJobRequest = api.CreateJobRequest
	ActionRequest    = api.ActionRequest
	ActionPlan       = api.ActionPlan
	ClusterStatus    = api.ClusterStatus
	ClusterOverview  = api.ClusterOverview
	SessionCluster   = api.SessionCluster
	ClusterMetrics   = api.ClusterMetrics
	Queue            = api.Queue
	Application      = api.Application
	AdoptRequest     = api.AdoptRequest
	ChangeKind       = api.ChangeKind
	Change           = api.Change
)

// Change kinds.
const (
	JobChanged     = api.JobChanged
	CommandChanged = api.CommandChanged
	ClusterChanged = api.ClusterChanged
	Resync         = api.Resync
)
