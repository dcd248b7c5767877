{{/* The objects' base name: <release>-crater, or the release name when it already says crater. */}}
{{- define "crater.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 50 | trimSuffix "-" -}}
{{- else if contains "crater" .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-crater" .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Selector labels of one component. app.kubernetes.io/name stays "crater": the NetworkPolicy Crater writes for
every job admits pods carrying it (io.crater.job.JobManifests). */}}
{{- define "crater.selectorLabels" -}}
app.kubernetes.io/name: crater
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "crater.labels" -}}
{{ include "crater.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: crater
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "crater.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "crater.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- required "serviceAccount.name: the ServiceAccount to run as when serviceAccount.create is false" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "crater.image" -}}
{{- $repo := required "image.repository: where you pushed Crater's image (docs/deploy.md)" .Values.image.repository -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" $repo .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repo (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/* The console's URL. */}}
{{- define "crater.publicUrl" -}}
{{- if .Values.publicUrl -}}
{{- .Values.publicUrl -}}
{{- else if and .Values.ingress.enabled .Values.ingress.host -}}
{{- printf "%s://%s" (ternary "https" "http" .Values.ingress.tls.enabled) .Values.ingress.host -}}
{{- end -}}
{{- end -}}

{{- define "crater.appsDomain" -}}
{{- if .Values.apps.domain -}}
{{- .Values.apps.domain -}}
{{- else if .Values.ingress.host -}}
{{- printf "apps.%s" .Values.ingress.host -}}
{{- end -}}
{{- end -}}

{{- define "crater.postgresql.fullname" -}}
{{- printf "%s-postgresql" (include "crater.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The Secret and key holding the database password. */}}
{{- define "crater.db.secretName" -}}
{{- if .Values.postgresql.enabled -}}
{{- default (include "crater.postgresql.fullname" .) .Values.postgresql.existingSecret.name -}}
{{- else -}}
{{- default (printf "%s-database" (include "crater.fullname" .)) .Values.database.existingSecret.name -}}
{{- end -}}
{{- end -}}

{{- define "crater.db.secretKey" -}}
{{- if .Values.postgresql.enabled -}}
{{- .Values.postgresql.existingSecret.passwordKey -}}
{{- else -}}
{{- .Values.database.existingSecret.passwordKey -}}
{{- end -}}
{{- end -}}

{{- define "crater.db.url" -}}
{{- if .Values.postgresql.enabled -}}
{{- printf "jdbc:postgresql://%s.%s.svc:5432/%s" (include "crater.postgresql.fullname" .) .Release.Namespace .Values.postgresql.database -}}
{{- else -}}
{{- required "database.url: the external PostgreSQL (jdbc:postgresql://host:5432/crater), or set postgresql.enabled" .Values.database.url -}}
{{- end -}}
{{- end -}}

{{- define "crater.db.username" -}}
{{- ternary .Values.postgresql.username .Values.database.username .Values.postgresql.enabled -}}
{{- end -}}

{{- define "crater.credentials.secretName" -}}
{{- default (printf "%s-credentials" (include "crater.fullname" .)) .Values.credentials.existingSecret.name -}}
{{- end -}}

{{- define "crater.mail.secretName" -}}
{{- default (printf "%s-mail" (include "crater.fullname" .)) .Values.mail.existingSecret.name -}}
{{- end -}}

{{/* The shared claim Crater's own pods mount: on NFS a twin in the release namespace, else the job namespace's. */}}
{{- define "crater.storage.localClaim" -}}
{{- if eq .Values.storage.mode "nfs" -}}
{{- printf "%s-spaces" (include "crater.fullname" .) -}}
{{- else if and (eq .Values.storage.mode "existing") .Values.storage.existingClaim -}}
{{- .Values.storage.existingClaim -}}
{{- else -}}
{{- if ne .Release.Namespace .Values.jobNamespace.name -}}
{{- fail (printf "storage.mode %s: Crater's pods mount the claim %s of the job namespace, so install the release into %s (or use storage.mode nfs, or existing with existingClaim)" .Values.storage.mode .Values.storage.claimName .Values.jobNamespace.name) -}}
{{- end -}}
{{- .Values.storage.claimName -}}
{{- end -}}
{{- end -}}

{{/* Whether the Prometheus Operator's kinds are rendered. */}}
{{- define "crater.monitoring" -}}
{{- if or .force (.root.Capabilities.APIVersions.Has "monitoring.coreos.com/v1") -}}true{{- end -}}
{{- end -}}

{{/* A list of NetworkPolicy ports on one protocol. */}}
{{- define "crater.ports" -}}
{{- range .ports }}
- protocol: {{ $.protocol }}
  port: {{ . }}
{{- end }}
{{- end -}}
