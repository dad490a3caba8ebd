//go:build dandori_harness

// The test harness of `deno task verify argo` (docs/targets.md#argo): Argo's own workflow controller,
// run in-process as Argo's controller tests run it. verify/dandori/argo.ts copies this file into a
// copy of github.com/argoproj/argo-workflows/v4's workflow/controller package (it builds on that
// package's test helpers: newController, with Kubernetes' fake clientsets and Argo's own) and builds
// the package's test binary with the tag dandori_harness; nothing else of Argo is changed.
//
// TestDandoriRuns plays every run of DANDORI_ARGO_JOBS: it creates the Workflow, then, round after
// round, lets the controller operate on it (workflow/controller's operate, as every Argo controller test
// does) and plays what the controller made, as a cluster would: each Pod it created ends as the run's
// next answer says (an exit code, the outputs its wait container would report through a
// WorkflowTaskResult: `answer.json` and `error.json`, the termination message), and a callback's
// suspended step is answered as `argo node set` and `argo resume` answer it (workflow/util's
// SetWorkflow and ResumeWorkflow, selecting the step by its input `callback_id`). No kubelet and no
// real Pod is involved: the harness decides how each Pod ends. Each run's record — what each Pod was
// handed, the Workflow's phase and its global outputs `dd_ctl`, `dd_output` and `dd_error` — is written
// to DANDORI_ARGO_RESULTS, one JSON line a run.
package controller

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	apiv1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"

	"github.com/argoproj/argo-workflows/v4/config"
	"github.com/argoproj/argo-workflows/v4/pkg/apis/workflow"
	wfv1 "github.com/argoproj/argo-workflows/v4/pkg/apis/workflow/v1alpha1"
	"github.com/argoproj/argo-workflows/v4/util/logging"
	"github.com/argoproj/argo-workflows/v4/workflow/common"
	hydratorfake "github.com/argoproj/argo-workflows/v4/workflow/hydrator/fake"
	wfutil "github.com/argoproj/argo-workflows/v4/workflow/util"
)

// dandoriPlay is how one Pod or one callback ends, in the order the run's calls come.
type dandoriPlay struct {
	// "container", "child" or "callback".
	Kind string `json:"kind"`
	// A container's or a child's exit code.
	Exit int32 `json:"exit"`
	// The outputs its wait container reports (answer.json, error.json; a child's `answer`).
	Answer string `json:"answer"`
	Error  string `json:"error"`
	// The termination message.
	Message string `json:"message"`
	// A callback's answer as `argo node set` sets it; null when the wait times out (its output's default).
	Callback *string `json:"callback"`
}

type dandoriRun struct {
	ID       string          `json:"id"`
	Workflow json.RawMessage `json:"workflow"`
	Plays    []dandoriPlay   `json:"plays"`
}

type dandoriJobs struct {
	// Images the flow's own tasks run in, each registered with a command (no registry is asked).
	Images []string     `json:"images"`
	Runs   []dandoriRun `json:"runs"`
	// The most rounds of operate one run may take.
	MaxRounds int `json:"maxRounds"`
}

type dandoriResult struct {
	ID       string            `json:"id"`
	Calls    []json.RawMessage `json:"calls"`
	Phase    string            `json:"phase"`
	Message  string            `json:"message"`
	Outputs  map[string]string `json:"outputs"`
	Problems []string          `json:"problems"`
	Rounds   int               `json:"rounds"`
	// The nodes the Workflow ended with (E040 estimates the most a run makes).
	Nodes int `json:"nodes"`
}

// dandoriEnv is the value of an environment variable of a Pod's containers, or "".
func dandoriEnv(pod *apiv1.Pod, name string) string {
	for _, cs := range [][]apiv1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for _, c := range cs {
			for _, e := range c.Env {
				if e.Name == name {
					return e.Value
				}
			}
		}
	}
	return ""
}

// dandoriTemplate is the template a Pod runs, as the controller handed it (ARGO_TEMPLATE, or its ConfigMap when offloaded).
func dandoriTemplate(ctx context.Context, controller *WorkflowController, pod *apiv1.Pod) (*wfv1.Template, error) {
	text := dandoriEnv(pod, common.EnvVarTemplate)
	if text == "" {
		cm, err := controller.kubeclientset.CoreV1().ConfigMaps(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
		if err != nil {
			return nil, fmt.Errorf("pod %s has no template: %w", pod.Name, err)
		}
		text = cm.Data[common.EnvVarTemplate]
	}
	var tmpl wfv1.Template
	if err := json.Unmarshal([]byte(text), &tmpl); err != nil {
		return nil, err
	}
	return &tmpl, nil
}

// dandoriChildCall is what a child's Workflow is created with: its WorkflowTemplate and its input.
func dandoriChildCall(tmpl *wfv1.Template) (json.RawMessage, error) {
	var manifest struct {
		Spec struct {
			WorkflowTemplateRef struct {
				Name string `json:"name"`
			} `json:"workflowTemplateRef"`
			Arguments struct {
				Parameters []struct {
					Name  string `json:"name"`
					Value string `json:"value"`
				} `json:"parameters"`
			} `json:"arguments"`
		} `json:"spec"`
	}
	if err := json.Unmarshal([]byte(tmpl.Resource.Manifest), &manifest); err != nil {
		return nil, fmt.Errorf("the child's manifest: %w", err)
	}
	input := json.RawMessage("null")
	for _, p := range manifest.Spec.Arguments.Parameters {
		if p.Name == "input" {
			input = json.RawMessage(p.Value)
		}
	}
	return json.Marshal(map[string]interface{}{"child": manifest.Spec.WorkflowTemplateRef.Name, "input": input})
}

// dandoriEndPod ends a Pod as `play` says, with the outputs its wait container would report.
func dandoriEndPod(ctx context.Context, controller *WorkflowController, woc *wfOperationCtx, pod apiv1.Pod, exit int32, message string, outputs []wfv1.Parameter) error {
	nodeID := woc.nodeID(&pod)
	result := &wfv1.WorkflowTaskResult{
		TypeMeta: metav1.TypeMeta{APIVersion: workflow.APIVersion, Kind: workflow.WorkflowTaskResultKind},
		ObjectMeta: metav1.ObjectMeta{
			Name:   nodeID,
			Labels: map[string]string{common.LabelKeyWorkflow: woc.wf.Name, common.LabelKeyReportOutputsCompleted: "true"},
		},
		NodeResult: wfv1.NodeResult{Phase: wfv1.NodeSucceeded, Outputs: &wfv1.Outputs{Parameters: outputs}},
	}
	if _, err := controller.wfclientset.ArgoprojV1alpha1().WorkflowTaskResults(pod.Namespace).Create(ctx, result, metav1.CreateOptions{}); err != nil {
		return err
	}
	pod.Status.Phase = apiv1.PodSucceeded
	if exit != 0 {
		pod.Status.Phase = apiv1.PodFailed
	}
	reason := "Completed"
	if exit != 0 {
		reason = "Error"
	}
	for _, c := range pod.Spec.Containers {
		state := &apiv1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed"}
		if c.Name == common.MainContainerName {
			state = &apiv1.ContainerStateTerminated{ExitCode: exit, Reason: reason, Message: message}
		}
		pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, apiv1.ContainerStatus{Name: c.Name, State: apiv1.ContainerState{Terminated: state}})
	}
	if _, err := controller.kubeclientset.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, &pod, metav1.UpdateOptions{}); err != nil {
		return err
	}
	// The Pod's informer is not written here (as Argo's own tests do): it must see the update through
	// its watch, after the Pod's creation. Written directly, a creation event still on its way would
	// overwrite it, and the next round would see a Pod without a phase (a node in error, retried).
	podKey := pod.Namespace + "/" + pod.Name
	if !dandoriAwait(func() bool {
		seen, ok, _ := controller.PodController.TestingPodInformer().GetStore().GetByKey(podKey)
		return ok && seen.(*apiv1.Pod).Status.Phase == pod.Status.Phase
	}) {
		return fmt.Errorf("the controller never saw %s end, after %s", pod.Name, dandoriInformerWait)
	}
	resultKey := pod.Namespace + "/" + nodeID
	if !dandoriAwait(func() bool {
		_, ok, _ := controller.taskResultInformer.GetStore().GetByKey(resultKey)
		return ok
	}) {
		return fmt.Errorf("the controller never saw the outputs of %s, after %s", pod.Name, dandoriInformerWait)
	}
	return nil
}

// dandoriInformerWait is how long the harness waits for the controller's informers to see what it
// wrote through the fake clientsets (milliseconds when the machine is idle; seconds under load).
const dandoriInformerWait = 60 * time.Second

// dandoriAwait polls seen until it holds, for at most dandoriInformerWait; whether it held.
func dandoriAwait(seen func() bool) bool {
	for deadline := time.Now().Add(dandoriInformerWait); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if seen() {
			return true
		}
	}
	return false
}

// dandoriPlayRun plays one run to its end.
func dandoriPlayRun(ctx context.Context, controller *WorkflowController, run dandoriRun, maxRounds int) dandoriResult {
	out := dandoriResult{ID: run.ID, Calls: []json.RawMessage{}, Problems: []string{}, Outputs: map[string]string{}}
	wf := &wfv1.Workflow{}
	if err := json.Unmarshal(run.Workflow, wf); err != nil {
		out.Problems = append(out.Problems, "the Workflow: "+err.Error())
		return out
	}
	wfs := controller.wfclientset.ArgoprojV1alpha1().Workflows(wf.Namespace)
	wf, err := wfs.Create(ctx, wf, metav1.CreateOptions{})
	if err != nil {
		out.Problems = append(out.Problems, "create: "+err.Error())
		return out
	}
	played := map[string]bool{}
	answered := map[string]bool{}
	// A callback's answer, by its id, from when its id was handed on until its wait is answered.
	waiting := map[string]*string{}
	next := 0
	take := func(kind string, call json.RawMessage) (dandoriPlay, bool) {
		out.Calls = append(out.Calls, call)
		if next >= len(run.Plays) {
			out.Problems = append(out.Problems, fmt.Sprintf("call %d has no answer: %s", len(out.Calls), call))
			return dandoriPlay{}, false
		}
		p := run.Plays[next]
		next++
		if p.Kind != kind {
			out.Problems = append(out.Problems, fmt.Sprintf("call %d is a %s, its answer a %s's: %s", len(out.Calls), kind, p.Kind, call))
			return dandoriPlay{}, false
		}
		return p, true
	}
	for out.Rounds = 0; out.Rounds < maxRounds; out.Rounds++ {
		woc := newWorkflowOperationCtx(ctx, wf, controller)
		woc.operate(ctx)
		wf = woc.wf
		if wf.Status.Fulfilled() {
			break
		}
		pods, err := controller.kubeclientset.CoreV1().Pods(wf.Namespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			out.Problems = append(out.Problems, err.Error())
			return out
		}
		for _, pod := range pods.Items {
			if played[pod.Name] || pod.Labels[common.LabelKeyWorkflow] != wf.Name {
				continue
			}
			played[pod.Name] = true
			if failing := dandoriEnv(&pod, "DANDORI_FAIL"); failing != "" {
				err = dandoriEndPod(ctx, controller, woc, pod, 1, failing, nil)
			} else if call := dandoriEnv(&pod, "DANDORI_CALL"); call != "" {
				var handed struct {
					CallbackID *string `json:"callback_id"`
				}
				_ = json.Unmarshal([]byte(call), &handed)
				kind := "container"
				if handed.CallbackID != nil {
					kind = "callback"
				}
				p, ok := take(kind, json.RawMessage(call))
				if !ok {
					return out
				}
				if kind == "callback" {
					waiting[*handed.CallbackID] = p.Callback
					p = dandoriPlay{Exit: 0, Answer: "null"}
				}
				outputs := []wfv1.Parameter{
					{Name: "answer", Value: wfv1.AnyStringPtr(p.Answer)},
					{Name: "error", Value: wfv1.AnyStringPtr(p.Error)},
				}
				err = dandoriEndPod(ctx, controller, woc, pod, p.Exit, p.Message, outputs)
			} else {
				tmpl, terr := dandoriTemplate(ctx, controller, &pod)
				if terr != nil || tmpl.Resource == nil {
					out.Problems = append(out.Problems, fmt.Sprintf("pod %s runs nothing dandori wrote (%v)", pod.Name, terr))
					return out
				}
				call, cerr := dandoriChildCall(tmpl)
				if cerr != nil {
					out.Problems = append(out.Problems, cerr.Error())
					return out
				}
				p, ok := take("child", call)
				if !ok {
					return out
				}
				err = dandoriEndPod(ctx, controller, woc, pod, p.Exit, p.Message, []wfv1.Parameter{{Name: "answer", Value: wfv1.AnyStringPtr(p.Answer)}})
			}
			if err != nil {
				out.Problems = append(out.Problems, err.Error())
				return out
			}
		}
		for _, n := range wf.Status.Nodes {
			if n.Type != wfv1.NodeTypeSuspend || n.Phase != wfv1.NodeRunning || n.Inputs == nil {
				continue
			}
			id := n.Inputs.GetParameterByName("callback_id")
			if id == nil || id.Value == nil || answered[n.ID] {
				continue
			}
			answer, ok := waiting[id.Value.String()]
			if !ok {
				continue
			}
			answered[n.ID] = true
			selector := "inputs.parameters.callback_id.value=" + id.Value.String()
			// A wait that times out leaves its output's default, "": set here at once instead of
			// waiting out the step's duration.
			set := ""
			if answer != nil {
				set = *answer
			}
			values := wfutil.SetOperationValues{OutputParameters: map[string]string{"answer": set}}
			if err := wfutil.SetWorkflow(ctx, wfs, hydratorfake.Noop, wf.Name, selector, values); err != nil {
				out.Problems = append(out.Problems, "argo node set: "+err.Error())
				return out
			}
			if err := wfutil.ResumeWorkflow(ctx, wfs, hydratorfake.Noop, wf.Name, selector); err != nil {
				out.Problems = append(out.Problems, "argo resume: "+err.Error())
				return out
			}
			if wf, err = wfs.Get(ctx, wf.Name, metav1.GetOptions{}); err != nil {
				out.Problems = append(out.Problems, err.Error())
				return out
			}
		}
	}
	if !wf.Status.Fulfilled() {
		out.Problems = append(out.Problems, fmt.Sprintf("the Workflow had not ended after %d rounds", maxRounds))
	}
	if next < len(run.Plays) {
		out.Problems = append(out.Problems, fmt.Sprintf("%d answers left unasked", len(run.Plays)-next))
	}
	out.Phase = string(wf.Status.Phase)
	out.Nodes = len(wf.Status.Nodes)
	out.Message = wf.Status.Message
	if wf.Status.Outputs != nil {
		for _, p := range wf.Status.Outputs.Parameters {
			if p.Value != nil {
				out.Outputs[p.Name] = p.Value.String()
			}
		}
	}
	return out
}

func TestDandoriRuns(t *testing.T) {
	text, err := os.ReadFile(os.Getenv("DANDORI_ARGO_JOBS"))
	if err != nil {
		t.Fatal(err)
	}
	var jobs dandoriJobs
	if err := json.Unmarshal(text, &jobs); err != nil {
		t.Fatal(err)
	}
	results, err := os.Create(os.Getenv("DANDORI_ARGO_RESULTS"))
	if err != nil {
		t.Fatal(err)
	}
	defer results.Close()
	w := bufio.NewWriter(results)
	ctx := logging.WithLogger(t.Context(), logging.NewSlogLogger(logging.Error, logging.Text))
	cancel, controller := newController(ctx, func(c *WorkflowController) {
		for _, image := range jobs.Images {
			c.Config.Images[image] = config.Image{Cmd: []string{"run"}}
		}
		// The tests' recorder keeps 64 events and then blocks: a run makes more; these are dropped.
		c.eventRecorderManager = &testEventRecorderManager{eventRecorder: &record.FakeRecorder{}}
	})
	defer cancel()
	for _, run := range jobs.Runs {
		line, err := json.Marshal(dandoriPlayRun(ctx, controller, run, jobs.MaxRounds))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
}
