package yarn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Container is one container of an application attempt, as the RM lists
// it while the application runs (ResourceManagerRest.md, "Containers for
// an Application Attempt API"). The RM sends its numbers as strings.
type Container struct {
	ContainerID         string `json:"containerId"`
	AllocatedMB         int64  `json:"allocatedMB"`
	AllocatedVCores     int64  `json:"allocatedVCores"`
	AssignedNodeID      string `json:"assignedNodeId"`
	Priority            int    `json:"priority"`
	StartedTime         int64  `json:"startedTime"`
	FinishedTime        int64  `json:"finishedTime"`
	ElapsedTime         int64  `json:"elapsedTime"`
	LogURL              string `json:"logUrl"`
	ContainerExitStatus int    `json:"containerExitStatus"`
	ContainerState      string `json:"containerState"`
	NodeHTTPAddress     string `json:"nodeHttpAddress"`
	NodeID              string `json:"nodeId"`
}

// UnmarshalJSON reads the numbers as numbers or numeric strings.
func (c *Container) UnmarshalJSON(b []byte) error {
	type plain Container
	w := struct {
		*plain
		AllocatedMB         flexFloat `json:"allocatedMB"`
		AllocatedVCores     flexFloat `json:"allocatedVCores"`
		Priority            flexFloat `json:"priority"`
		StartedTime         flexFloat `json:"startedTime"`
		FinishedTime        flexFloat `json:"finishedTime"`
		ElapsedTime         flexFloat `json:"elapsedTime"`
		ContainerExitStatus flexFloat `json:"containerExitStatus"`
	}{plain: (*plain)(c)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	c.AllocatedMB, c.AllocatedVCores = int64(w.AllocatedMB), int64(w.AllocatedVCores)
	c.Priority = int(w.Priority)
	c.StartedTime, c.FinishedTime, c.ElapsedTime = int64(w.StartedTime), int64(w.FinishedTime), int64(w.ElapsedTime)
	c.ContainerExitStatus = int(w.ContainerExitStatus)
	return nil
}

// AttemptID is the full id of an application's attempt n, as the
// containers API takes it: application_1732_0042 and 1 make
// appattempt_1732_0042_000001.
func AttemptID(appID, n string) string {
	if strings.HasPrefix(n, "appattempt_") {
		return n
	}
	num, err := strconv.Atoi(n)
	if err != nil {
		return n
	}
	return "appattempt_" + strings.TrimPrefix(appID, "application_") + fmt.Sprintf("_%06d", num)
}

// AttemptContainers lists the containers of an application attempt
// (GET …/apps/{appid}/appattempts/{attemptid}/containers). attempt is the
// attempt's number (AppAttempt.ID) or its full id. Only a running
// application has any: the RM forgets them when it ends.
func (c *ResourceManager) AttemptContainers(ctx context.Context, appID, attempt string) ([]Container, error) {
	var w struct {
		Containers *struct {
			Container listOf[Container] `json:"container"`
		} `json:"containers"`
	}
	path := clusterPath + "apps/" + pathEscape(appID) + "/appattempts/" + pathEscape(AttemptID(appID, attempt)) + "/containers"
	if err := c.get(ctx, path, nil, "attempt containers", &w, nil); err != nil {
		return nil, err
	}
	if w.Containers == nil {
		return nil, nil
	}
	return w.Containers.Container, nil
}

// Configuration keys palink reads from the RM.
const (
	// ConfLogServerWebService is where aggregated container logs are
	// served over REST (the timeline server's /ws/v1/applicationhistory).
	ConfLogServerWebService = "yarn.log.server.web-service.url"
	// ConfLogServerURL is the JobHistory server's log page, for browsers.
	ConfLogServerURL = "yarn.log.server.url"
)

// ConfValue returns one property of the RM's configuration (GET
// /conf?name=…, Hadoop's ConfServlet, JSON: {"property":{"key","value",…}}).
// A property that is not set fails with ErrNotFound. The RM may restrict
// /conf to administrators (ErrUnauthorized then).
func (c *ResourceManager) ConfValue(ctx context.Context, name string) (string, error) {
	r := request{method: http.MethodGet, path: "conf", query: url.Values{"name": {name}}}
	resp, err := c.call(ctx, r, nil)
	if err != nil {
		return "", err
	}
	if err := expect(r.method, resp, http.StatusOK); err != nil {
		return "", err
	}
	var w struct {
		Property *struct {
			Key   string `json:"key"`
			Value string `json:"value"`
		} `json:"property"`
		Properties []struct {
			Key   string `json:"key"`
			Value string `json:"value"`
		} `json:"properties"`
	}
	if err := decode(r.method, resp, "configuration", &w); err != nil {
		return "", err
	}
	if w.Property != nil && w.Property.Key == name {
		return w.Property.Value, nil
	}
	for _, p := range w.Properties { // a servlet that ignored name= sent everything
		if p.Key == name {
			return p.Value, nil
		}
	}
	return "", &HTTPError{Method: r.method, URL: resp.url, Status: http.StatusNotFound,
		Errors: []string{errors.New("property " + name + " not set").Error()}}
}
