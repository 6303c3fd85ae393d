package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/distribution/reference"

	"github.com/polyclass/polyclass/framework/safetext"
)

// Kubernetes is a submission to Kubernetes: an Indexed Job of one
// completion per shard and a merge Job, both mounting one
// PersistentVolumeClaim that holds the results directory. Run's paths are
// paths inside the image (Dir inside the claim's mount), and Bench may be a
// name found on the image's PATH.
type Kubernetes struct {
	Run
	// Image is the container image holding bench, its plugins, the
	// experiment file and its data.
	Image string
	// Claim is the PersistentVolumeClaim holding the results; it must be
	// ReadWriteMany when shards run on several nodes.
	Claim string
	// Mount is where the claim is mounted; Dir lies below it.
	Mount string
	// Parallelism is the number of shards running at once; 0: all.
	Parallelism int
	// CPUs is each shard's CPU request and limit, and the folds it runs in
	// parallel; 0: no request, bench's default parallelism.
	CPUs int
	// Mem is each shard's memory request and limit, as Slurm's --mem
	// takes it (binary units, M when bare); empty: none.
	Mem string
}

// Names of the manifests Kubernetes writes into its directory.
const (
	// ShardsManifest is the Indexed Job of the shards.
	ShardsManifest = "shards.json"
	// MergeManifest is the merge Job.
	MergeManifest = "merge.json"
)

// dnsLabel is what a Job's name must be.
var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// Check reports the first value k cannot put into a manifest.
func (k *Kubernetes) Check() error {
	if err := k.check(); err != nil {
		return err
	}
	if err := gate(field{"image", k.Image}, field{"mount", k.Mount}); err != nil {
		return err
	}
	mount := strings.TrimSuffix(k.Mount, "/")
	switch {
	case !imageReference(k.Image):
		return fmt.Errorf("image %q: want an image reference, such as registry.example.org/polyclass:1.0 (lower-case repository path, a tag of letters, digits, _ . and - not starting with . or -, a digest of hexadecimal digits)", k.Image)
	case !dnsLabel.MatchString(k.Claim) || len(k.Claim) > 253:
		return fmt.Errorf("claim %q: want the name of a PersistentVolumeClaim (lower-case letters, digits and -)", k.Claim)
	case !strings.HasPrefix(k.Mount, "/"):
		return fmt.Errorf("mount %q: want an absolute path", k.Mount)
	case !strings.HasPrefix(path.Clean(k.Dir), mount+"/") || path.Clean(k.Dir) != strings.TrimSuffix(k.Dir, "/"):
		return fmt.Errorf("results directory %s is not below the claim's mount %s (or not written plainly, without . or .. or //)", k.Dir, k.Mount)
	case k.Parallelism < 0:
		return fmt.Errorf("parallelism %d: want 1 or more", k.Parallelism)
	case k.CPUs < 0:
		return fmt.Errorf("cpus %d: want 1 or more", k.CPUs)
	}
	return checkMem(k.Mem)
}

// imageReference reports whether s is an image reference a container
// runtime pulls: [registry[:port]/]path[:tag][@digest], by the grammar of
// the distribution project (the repository path in lower case, a tag or a
// digest well formed), so that a mistyped --image fails at submit, not
// when the pods start.
func imageReference(s string) bool {
	_, err := reference.Parse(s)
	return err == nil
}

// The parts of a Job's name: polyclass-, at most labelMax characters of
// the experiment's name, - and digestLen hexadecimal digits (49
// characters at most, 55 for the merge Job). Kubernetes allows 63 in a
// DNS label; the pods of an Indexed Job take the Job's name and their
// index as their host name, so the name leaves room for that.
const (
	// labelMax bounds the experiment's sanitised name in a Job's name.
	labelMax = 30
	// digestLen is the length of the digest of the experiment's name.
	digestLen = 8
)

// JobName is the name of the shards' Job: polyclass-, the experiment's
// name as a DNS label and a digest of the name as given, so that two
// names that read the same as DNS labels (My_Exp.V2, my-exp-v2) name
// different Jobs.
func (k *Kubernetes) JobName() string {
	return "polyclass-" + k.label()
}

// label is the experiment's name as a DNS label: its letters (lower
// case) and digits, at most labelMax of them with - for the rest, and the
// first digestLen hexadecimal digits of the name's SHA-256.
func (k *Kubernetes) label() string {
	var b strings.Builder
	for _, r := range strings.ToLower(k.Experiment) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	l := strings.Trim(b.String(), "-")
	if len(l) > labelMax {
		l = strings.TrimRight(l[:labelMax], "-")
	}
	sum := sha256.Sum256([]byte(k.Experiment))
	digest := hex.EncodeToString(sum[:])[:digestLen]
	if l == "" {
		return digest
	}
	return l + "-" + digest
}

// MergeJobName is the name of the merge Job.
func (k *Kubernetes) MergeJobName() string { return k.JobName() + "-merge" }

// The parts of the batch/v1 Job API the manifests use.
type (
	job struct {
		APIVersion string   `json:"apiVersion"`
		Kind       string   `json:"kind"`
		Metadata   metadata `json:"metadata"`
		Spec       jobSpec  `json:"spec"`
	}
	metadata struct {
		Name   string            `json:"name,omitempty"`
		Labels map[string]string `json:"labels"`
	}
	jobSpec struct {
		CompletionMode string      `json:"completionMode,omitempty"`
		Completions    int         `json:"completions"`
		Parallelism    int         `json:"parallelism"`
		BackoffLimit   int         `json:"backoffLimit"`
		Template       podTemplate `json:"template"`
	}
	podTemplate struct {
		Metadata metadata `json:"metadata"`
		Spec     podSpec  `json:"spec"`
	}
	podSpec struct {
		RestartPolicy string      `json:"restartPolicy"`
		Containers    []container `json:"containers"`
		Volumes       []volume    `json:"volumes"`
	}
	container struct {
		Name         string        `json:"name"`
		Image        string        `json:"image"`
		Command      []string      `json:"command"`
		Resources    *resources    `json:"resources,omitempty"`
		VolumeMounts []volumeMount `json:"volumeMounts"`
	}
	resources struct {
		Requests map[string]string `json:"requests"`
		Limits   map[string]string `json:"limits"`
	}
	volumeMount struct {
		Name      string `json:"name"`
		MountPath string `json:"mountPath"`
	}
	volume struct {
		Name                  string      `json:"name"`
		PersistentVolumeClaim claimSource `json:"persistentVolumeClaim"`
	}
	claimSource struct {
		ClaimName string `json:"claimName"`
	}
)

// resultsVolume names the claim's volume in the pods.
const resultsVolume = "results"

// job is a Job running command in k's image with the claim mounted.
func (k *Kubernetes) job(name, containerName string, command []string, res *resources) job {
	labels := map[string]string{
		"app.kubernetes.io/name": "polyclass",
		"polyclass/experiment":   k.label(),
	}
	return job{
		APIVersion: "batch/v1", Kind: "Job",
		Metadata: metadata{Name: name, Labels: labels},
		Spec: jobSpec{Completions: 1, Parallelism: 1, Template: podTemplate{
			Metadata: metadata{Labels: labels},
			Spec: podSpec{
				RestartPolicy: "Never",
				Containers: []container{{Name: containerName, Image: k.Image, Command: command, Resources: res,
					VolumeMounts: []volumeMount{{Name: resultsVolume, MountPath: k.Mount}}}},
				Volumes: []volume{{Name: resultsVolume, PersistentVolumeClaim: claimSource{ClaimName: k.Claim}}},
			},
		}},
	}
}

// quantity turns a Slurm memory size into a Kubernetes quantity of the
// same number of bytes.
func quantity(mem string) string {
	m := memory.FindStringSubmatch(mem)
	unit := m[2]
	if unit == "" {
		unit = "M"
	}
	return m[1] + unit + "i"
}

// Manifests are the shards' Indexed Job (completion index I runs shard I
// of k.Shards; the Job controller sets JOB_COMPLETION_INDEX) and the merge
// Job, as JSON, which kubectl takes as it takes YAML.
func (k *Kubernetes) Manifests() (shards, merge []byte, err error) {
	if err := k.Check(); err != nil {
		return nil, nil, err
	}
	var res *resources
	jobs := ""
	if k.CPUs > 0 || k.Mem != "" {
		res = &resources{Requests: map[string]string{}, Limits: map[string]string{}}
	}
	if k.CPUs > 0 {
		jobs = fmt.Sprint(k.CPUs)
		res.Requests["cpu"] = jobs
		res.Limits["cpu"] = jobs
	}
	if k.Mem != "" {
		res.Requests["memory"] = quantity(k.Mem)
		res.Limits["memory"] = quantity(k.Mem)
	}
	cmd := literal(k.command("run"))
	if jobs != "" {
		cmd = append(cmd, "-j", jobs)
	}
	// The one reference Kubernetes is to expand: the shard's index.
	cmd = append(cmd, "--shard", fmt.Sprintf("$(JOB_COMPLETION_INDEX)/%d", k.Shards))
	cmd = append(cmd, literal([]string{"-o", k.Dir, safetext.Path(k.File)})...)
	s := k.job(k.JobName(), "shard", cmd, res)
	s.Spec.CompletionMode = "Indexed"
	s.Spec.Completions = k.Shards
	s.Spec.Parallelism = k.Shards
	if k.Parallelism > 0 && k.Parallelism < k.Shards {
		s.Spec.Parallelism = k.Parallelism
	}
	// A pod that failed is retried (it resumes); a shard that fails every
	// time fails the Job after as many retries as there are shards.
	s.Spec.BackoffLimit = k.Shards
	m := k.job(k.MergeJobName(), "merge", literal(k.MergeArgs()), nil)
	if shards, err = marshal(s); err != nil {
		return nil, nil, err
	}
	if merge, err = marshal(m); err != nil {
		return nil, nil, err
	}
	return shards, merge, nil
}

// literal returns args written so that Kubernetes passes each to the
// container as it is: Kubernetes expands $(NAME) in a container's command
// from the container's environment and reads $$ as $, so that an
// experiment file named e$(HOME).hcl or a$$b.hcl would otherwise reach
// bench as another name. Every $ is doubled.
func literal(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, "$", "$$")
	}
	return out
}

func marshal(j job) ([]byte, error) {
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("manifest of job %s: %w", j.Metadata.Name, err)
	}
	return append(b, '\n'), nil
}
