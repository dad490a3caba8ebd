// Command argo-validate checks WorkflowTemplates the way Argo Workflows itself does, offline
// (docs/targets.md#argo): each file is read as `argo lint` reads it (workflow/common.ParseObjects,
// strict: no field Argo does not know), validated by workflow/validate.ValidateWorkflowTemplate (what
// `argo lint` and the API server's lint run), and checked against the OpenAPI schema of Argo's
// WorkflowTemplate CRD with the validator the Kubernetes API server applies to custom resources.
//
// Usage: argo-validate <crd.yaml> <template.yaml>… prints one JSON line per template:
// {"file": …, "errors": […]}; it exits 0 when it could read its CRD, whatever it found.
//
// This program is the test harness only (verify/dandori/argo.ts builds and runs it): it links
// github.com/argoproj/argo-workflows/v4, which the Go module proxy serves with security advisories,
// and nothing dandori builds for users does.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	wfv1 "github.com/argoproj/argo-workflows/v4/pkg/apis/workflow/v1alpha1"
	"github.com/argoproj/argo-workflows/v4/util/logging"
	"github.com/argoproj/argo-workflows/v4/workflow/common"
	"github.com/argoproj/argo-workflows/v4/workflow/validate"
)

// noTemplates answers every lookup of another template: a dandori template refers to none.
type noTemplates struct{}

func (noTemplates) Get(_ context.Context, name string) (*wfv1.WorkflowTemplate, error) {
	return nil, fmt.Errorf("no WorkflowTemplate %q here", name)
}

type noClusterTemplates struct{}

func (noClusterTemplates) Get(_ context.Context, name string) (*wfv1.ClusterWorkflowTemplate, error) {
	return nil, fmt.Errorf("no ClusterWorkflowTemplate %q here", name)
}

// schema reads the CRD's OpenAPI schema of v1alpha1 into the API server's validator.
func schema(path string) (validation.SchemaCreateValidator, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, v := range crd.Spec.Versions {
		if v.Name != "v1alpha1" || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		var internal apiextensions.JSONSchemaProps
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, &internal, nil); err != nil {
			return nil, err
		}
		validator, _, err := validation.NewSchemaValidator(&internal)
		return validator, err
	}
	return nil, fmt.Errorf("%s has no schema of v1alpha1", path)
}

// check returns what Argo and the CRD's schema find wrong with one file.
func check(ctx context.Context, validator validation.SchemaCreateValidator, path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	var object map[string]interface{}
	if err := yaml.Unmarshal(data, &object); err != nil {
		return []string{fmt.Sprintf("not YAML: %v", err)}
	}
	for _, e := range validation.ValidateCustomResource(field.NewPath(""), object, validator) {
		problems = append(problems, "schema: "+e.Error())
	}
	parsed := common.ParseObjects(ctx, data, true)
	if len(parsed) != 1 {
		return append(problems, fmt.Sprintf("%d Kubernetes objects, not one WorkflowTemplate", len(parsed)))
	}
	if parsed[0].Err != nil {
		return append(problems, "parse: "+parsed[0].Err.Error())
	}
	tmpl, ok := parsed[0].Object.(*wfv1.WorkflowTemplate)
	if !ok {
		return append(problems, fmt.Sprintf("a %T, not a WorkflowTemplate", parsed[0].Object))
	}
	err = validate.ValidateWorkflowTemplate(ctx, noTemplates{}, noClusterTemplates{}, tmpl, nil, validate.ValidateOpts{Lint: true})
	if err != nil {
		problems = append(problems, "argo lint: "+err.Error())
	}
	return problems
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: argo-validate <crd.yaml> <template.yaml>…")
		os.Exit(2)
	}
	ctx := logging.WithLogger(context.Background(), logging.NewSlogLogger(logging.Error, logging.Text))
	validator, err := schema(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "argo-validate:", err)
		os.Exit(1)
	}
	out := json.NewEncoder(os.Stdout)
	for _, path := range os.Args[2:] {
		problems := check(ctx, validator, path)
		if problems == nil {
			problems = []string{}
		}
		if err := out.Encode(map[string]interface{}{"file": path, "errors": problems}); err != nil {
			fmt.Fprintln(os.Stderr, "argo-validate:", err)
			os.Exit(1)
		}
	}
}
