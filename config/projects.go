package config

// Projects configures the builds of projects (JAR jobs built from git).
type Projects struct {
	// CacheDir holds each project's checkout, kept artifacts and failed
	// builds' logs; default "projects" beside the store file.
	CacheDir string `yaml:"cache_dir"`
}
