package core

import (
	"context"
	"fmt"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/logs"
)

// The log calls of the agent protocol. Logs, ReadLog and FindInLog run on
// the agent, which reaches the clusters; SaveLog runs in the client, which
// writes its own file from ReadLog chunks, so that the agent never writes
// files for (or as) another user.

// logCallTimeout bounds one log call on the agent. A FindInLog call scans
// at most LogSearch.MaxScan bytes, so it fits as well.
const logCallTimeout = 2 * time.Minute

// Logs is Service.Logs.
func (h *rpcHandler) Logs(ref string, out *api.LogList) (err error) {
	ctx, cancel := h.call(logCallTimeout)
	defer cancel()
	*out, err = h.svc.Logs(ctx, ref)
	return err
}

// ReadLog is Service.ReadLog.
func (h *rpcHandler) ReadLog(r api.LogRequest, out *api.LogChunk) (err error) {
	ctx, cancel := h.call(logCallTimeout)
	defer cancel()
	*out, err = h.svc.ReadLog(ctx, r)
	return err
}

// FindInLog is Service.FindInLog.
func (h *rpcHandler) FindInLog(s api.LogSearch, out *api.LogMatch) (err error) {
	ctx, cancel := h.call(logCallTimeout)
	defer cancel()
	*out, err = h.svc.FindInLog(ctx, s)
	return err
}

// Logs implements Service.
func (r *Remote) Logs(ctx context.Context, ref string) (out api.LogList, err error) {
	return out, r.call(ctx, "Logs", ref, &out)
}

// ReadLog implements Service.
func (r *Remote) ReadLog(ctx context.Context, req api.LogRequest) (out api.LogChunk, err error) {
	return out, r.call(ctx, "ReadLog", req, &out)
}

// FindInLog implements Service.
func (r *Remote) FindInLog(ctx context.Context, s api.LogSearch) (out api.LogMatch, err error) {
	return out, r.call(ctx, "FindInLog", s, &out)
}

// SaveLog implements Service: the agent sends the log chunk by chunk and
// this process writes the file.
func (r *Remote) SaveLog(ctx context.Context, req api.SaveLogRequest) (api.SavedLog, error) {
	read := func(ctx context.Context, offset int64, tail bool, limit int64) (api.LogChunk, error) {
		return r.ReadLog(ctx, api.LogRequest{JobRef: req.JobRef, Log: req.Log, Offset: offset, Tail: tail, Limit: limit})
	}
	s, err := logs.Save(ctx, read, req.Path)
	if err != nil {
		return s, fmt.Errorf("save %s of job %s: %w", logs.Title(req.Log), req.JobRef, err)
	}
	return s, nil
}
