{{/*
Expand the name of the chart.
*/}}
{{- define "mahjong-referee.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Create a default fully qualified app name.
We truncate at 63 chars because some Kubernetes name fields are limited to this (by the DNS naming spec).
If release name contains chart name it will be used as a full name.
*/}}
{{- define "mahjong-referee.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Create chart name and version as used by the chart label.
*/}}
{{- define "mahjong-referee.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Common labels
*/}}
{{- define "mahjong-referee.labels" -}}
helm.sh/chart: {{ include "mahjong-referee.chart" . }}
{{ include "mahjong-referee.selectorLabels" . }}
{{- if .Chart.AppVersion }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/component: server
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
Selector labels
*/}}
{{- define "mahjong-referee.selectorLabels" -}}
app.kubernetes.io/name: {{ include "mahjong-referee.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
The "annotations:" block of an object's metadata (indented for it), with commonAnnotations merged
in; nothing when there are none. Put it right after the labels:
  {{- include "mahjong-referee.annotations" (dict "extra" .Values.x.annotations "context" $) }}
*/}}
{{- define "mahjong-referee.annotations" -}}
{{- $all := merge (deepCopy (default (dict) .extra)) (deepCopy .context.Values.commonAnnotations) }}
{{- with $all }}
  annotations:
{{ toYaml . | indent 4 }}
{{- end }}
{{- end }}

{{/*
Create the name of the service account to use
*/}}
{{- define "mahjong-referee.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "mahjong-referee.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
The image reference: registry/repository, then @digest or :tag (the appVersion by default).
*/}}
{{- define "mahjong-referee.image" -}}
{{- $repo := .Values.image.repository }}
{{- if .Values.image.registry }}
{{- $repo = printf "%s/%s" .Values.image.registry .Values.image.repository }}
{{- end }}
{{- if .Values.image.digest }}
{{- printf "%s@%s" $repo .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" $repo (.Values.image.tag | default .Chart.AppVersion | toString) }}
{{- end }}
{{- end }}

{{/*
The label a client pod needs when networkPolicy.allowExternal is false.
*/}}
{{- define "mahjong-referee.clientLabel" -}}
{{- printf "%s-client" (include "mahjong-referee.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
gRPC health service names (the server's contract).
"" is the whole server; the readiness probe asks for the API service itself.
*/}}
{{- define "mahjong-referee.healthService" -}}
mahjong.v1.MahjongService
{{- end }}

{{/*
Longest time a call can still run once the drain is over: ceil(requestTimeoutMs / 1000).
*/}}
{{- define "mahjong-referee.requestTimeoutSeconds" -}}
{{- div (add (int64 .Values.config.requestTimeoutMs) 999) 1000 }}
{{- end }}

{{/*
terminationGracePeriodSeconds: at least the drain plus the longest call, so that Kubernetes never
kills a pod that is still finishing work. Derived from the config unless set; a value set too
small is an error.
*/}}
{{- define "mahjong-referee.terminationGracePeriodSeconds" -}}
{{- $needed := add (int64 .Values.config.drainSeconds) (include "mahjong-referee.requestTimeoutSeconds" . | int64) }}
{{- if kindIs "invalid" .Values.terminationGracePeriodSeconds }}
{{- add $needed (int64 .Values.terminationGraceExtraSeconds) }}
{{- else }}
{{- $set := int64 .Values.terminationGracePeriodSeconds }}
{{- if le $set $needed }}
{{- fail (printf "terminationGracePeriodSeconds (%d) must be larger than config.drainSeconds + ceil(config.requestTimeoutMs / 1000) = %d" $set $needed) }}
{{- end }}
{{- $set }}
{{- end }}
{{- end }}

{{/*
The three probes. Without TLS: native gRPC probes (grpc.health.v1). With TLS (kubelet's gRPC
probe speaks no TLS): TCP for startup and readiness, /healthz on the plain metrics port for
liveness. A custom*Probe value replaces the generated probe.
Usage: {{ include "mahjong-referee.probe" (dict "kind" "readiness" "context" $) }}
*/}}
{{- define "mahjong-referee.probe" -}}
{{- $ctx := .context }}
{{- $v := $ctx.Values }}
{{- $custom := get $v (printf "custom%sProbe" (title .kind)) }}
{{- $probe := get $v (printf "%sProbe" .kind) }}
{{- if $custom }}
{{- toYaml $custom }}
{{- else }}
{{- if not $v.tls.enabled }}
grpc:
  port: {{ $v.containerPorts.grpc }}
  service: {{ ternary (include "mahjong-referee.healthService" $ctx) "" (eq .kind "readiness") | quote }}
{{- else if eq .kind "liveness" }}
httpGet:
  path: /healthz
  port: metrics
{{- else }}
tcpSocket:
  port: grpc
{{- end }}
{{- toYaml (omit $probe "enabled") | nindent 0 }}
{{- end }}
{{- end }}

{{/*
host:port for a listener; an IPv6 host is bracketed ([::]:50051).
Usage: {{ include "mahjong-referee.socketAddress" (list .Values.config.bindAddress 50051) }}
*/}}
{{- define "mahjong-referee.socketAddress" -}}
{{- $host := index . 0 | toString }}
{{- $port := index . 1 | int64 }}
{{- if contains ":" $host }}
{{- printf "[%s]:%d" $host $port }}
{{- else }}
{{- printf "%s:%d" $host $port }}
{{- end }}
{{- end }}

{{/*
An IntOrString value: a percentage stays a quoted string, a number is written as an integer.
*/}}
{{- define "mahjong-referee.intOrString" -}}
{{- if kindIs "string" . }}
{{- if regexMatch "^[0-9]+$" . }}{{ . }}{{ else }}{{ quote . }}{{ end }}
{{- else }}
{{- int64 . }}
{{- end }}
{{- end }}
