package kit

import "github.com/palink/palink/core/api"

// OpenVersionsMsg asks the root to list a job's saved spec versions, to
// diff them: a PyFlink job's scripts, which have no editor in palink.
type OpenVersionsMsg struct{ Job api.JobView }
