{{/*
The release's base name; every object is named <fullname>-<app> or <fullname>-<role>.
*/}}
{{- define "feedback.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "feedback.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- with .app }}
app.kubernetes.io/component: {{ . }}
{{- end }}
{{- end -}}

{{/* Labels of every object; call with (dict "root" $ "app" NAME), app empty for shared objects. */}}
{{- define "feedback.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{ include "feedback.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/part-of: feedback
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- end -}}

{{/* The image of an app: (dict "root" $ "app" ROW), the row's image over the top-level one. Never `latest`. */}}
{{- define "feedback.image" -}}
{{- $image := merge (deepCopy ((.app).image | default dict)) .root.Values.image -}}
{{- $tag := $image.tag | default .root.Chart.AppVersion | toString -}}
{{- if eq $tag "latest" -}}
{{- fail "image.tag: latest is refused; pin a version (or set image.digest)" -}}
{{- end -}}
{{- printf "%s:%s" $image.repository $tag -}}
{{- with $image.digest }}@{{ . }}{{ end -}}
{{- end -}}

{{- define "feedback.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "feedback.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/* The Secret the chart makes (secret.yaml) for whatever is not in an existing Secret. */}}
{{- define "feedback.secretName" -}}
{{- include "feedback.fullname" . }}-credentials
{{- end -}}

{{/* An env var from a Secret: (dict "name" VAR "secret" NAME "key" KEY "optional" BOOL). */}}
{{- define "feedback.secretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ .secret }}
      key: {{ .key }}
      {{- if .optional }}
      optional: true
      {{- end }}
{{- end -}}

{{/* The headless Service of an app's gRPC port: (dict "root" $ "app" NAME). */}}
{{- define "feedback.grpcServiceName" -}}
{{- printf "%s-%s-grpc" (include "feedback.fullname" .root) .app -}}
{{- end -}}

{{/*
gRPC address of an app for its callers: (dict "root" $ "app" NAME). dns:/// makes grpc-js resolve every
address of the headless Service (one per ready pod) and balance over them (round_robin, kit-grpc).
*/}}
{{- define "feedback.grpcAddr" -}}
{{- $grpc := (index .root.Values.apps .app).ports.grpc -}}
{{- printf "dns:///%s.%s.svc.%s:%d" (include "feedback.grpcServiceName" .) .root.Release.Namespace .root.Values.clusterDomain (int ($grpc.servicePort | default $grpc.port)) -}}
{{- end -}}

{{- define "feedback.trustProxy" -}}
{{- if .Values.config.trustProxy -}}
{{- .Values.config.trustProxy -}}
{{- else if .Values.ingress.enabled -}}
1
{{- else -}}
false
{{- end -}}
{{- end -}}

{{/*
The shared settings, by the variable the apps read: each app takes those its `settings` list names.
Values are strings (a ConfigMap's data).
*/}}
{{- define "feedback.settings" -}}
{{- $c := .Values.config -}}
LOG_LEVEL: {{ $c.logLevel | quote }}
LOG_REQUESTS: {{ $c.logRequests | quote }}
PUBLIC_BASE_URL: {{ .Values.publicBaseUrl | quote }}
PUBLIC_SHORTENER_URL: {{ .Values.publicShortenerUrl | quote }}
DEFAULT_PHONE_REGION: {{ $c.defaultPhoneRegion | quote }}
DEFAULT_LINK_TTL_DAYS: {{ $c.defaultLinkTtlDays | toString | quote }}
CUSTOMER_SCHEMA_ATTRIBUTES: {{ join "," $c.customerSchemaAttributes | quote }}
DISPLAY_TIME_ZONE: {{ $c.displayTimeZone | quote }}
FILE_RETENTION_SECONDS: {{ $c.fileRetentionSeconds | int64 | toString | quote }}
MAX_UPLOAD_BYTES: {{ $c.maxUploadBytes | int64 | toString | quote }}
REDIRECT_STATUS: {{ $c.redirectStatus | toString | quote }}
TRUST_PROXY: {{ include "feedback.trustProxy" . | quote }}
SMS_MAX_PHONES_PER_SHARING: {{ $c.maxPhonesPerSharing | toString | quote }}
MESSAGES_RETENTION_DAYS: {{ $c.retention.messagesDays | toString | quote }}
RESPONSES_RETENTION_DAYS: {{ $c.retention.responsesDays | toString | quote }}
WEBHOOK_DELIVERIES_RETENTION_DAYS: {{ $c.retention.webhookDeliveriesDays | toString | quote }}
EXPIRED_LINK_GRACE_DAYS: {{ $c.retention.expiredLinkGraceDays | toString | quote }}
{{- end -}}

{{/* A value of an app's `env` as a variable: lists joined with commas, numbers without exponent. */}}
{{- define "feedback.envValue" -}}
{{- if kindIs "slice" . -}}{{ join "," . }}
{{- else if kindIs "float64" . -}}{{ . | int64 }}
{{- else -}}{{ . }}
{{- end -}}
{{- end -}}

{{/*
The ConfigMap data of one app, as YAML: (dict "root" $ "name" NAME "app" ROW). Its settings, the stores it
uses, the addresses of the enabled services it calls, and its ports' URLs. Secrets are never here.
*/}}
{{- define "feedback.appConfig" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $app := .app -}}
{{- $uses := $app.uses | default dict -}}
{{- $data := dict -}}
{{- $settings := include "feedback.settings" $root | fromYaml -}}
{{- range $app.settings -}}
{{- if not (hasKey $settings .) }}{{ fail (printf "apps.%s.settings: %s is no shared setting (README.md \"Settings\")" $.name .) }}{{ end -}}
{{- $_ := set $data . (get $settings .) -}}
{{- end -}}
{{- if $uses.kafka }}{{ $_ := set $data "KAFKA_BROKERS" (join "," $v.kafka.brokers) }}{{ end -}}
{{- if $uses.s3 -}}
{{- $_ := set $data "S3_ENDPOINT" $v.s3.endpoint -}}
{{- $_ := set $data "S3_REGION" $v.s3.region -}}
{{- $_ := set $data "S3_BUCKET" $v.s3.bucket -}}
{{- end -}}
{{- range $callee := $app.calls -}}
{{- $row := index $v.apps $callee -}}
{{- if not $row }}{{ fail (printf "apps.%s.calls: there is no app %s" $.name $callee) }}{{ end -}}
{{- if $row.enabled -}}
{{- if not ($row.ports | default dict).grpc }}{{ fail (printf "apps.%s.calls: %s has no grpc port" $.name $callee) }}{{ end -}}
{{- $_ := set $data (printf "%s_GRPC_ADDR" (upper $callee | replace "-" "_")) (include "feedback.grpcAddr" (dict "root" $root "app" $callee)) -}}
{{- end -}}
{{- end -}}
{{- range $port, $p := $app.ports -}}
{{- with $p.urlEnv -}}
{{- $_ := set $data . (printf "http://%s-%s.%s.svc:%d" (include "feedback.fullname" $root) $.name $root.Release.Namespace (int ($p.servicePort | default $p.port))) -}}
{{- end -}}
{{- end -}}
{{- if $uses.smsProvider -}}
{{- $_ := set $data "SMS_PROVIDER" $v.smsProvider.kind -}}
{{- $_ := set $data "SMS_TURKISH_SHIFT_TABLE" ($v.smsProvider.turkishShiftTable | default false | toString) -}}
{{- with $v.smsProvider.dlrPublicUrl }}{{ $_ := set $data "DLR_PUBLIC_URL" . }}{{ end -}}
{{- end -}}
{{- toYaml $data -}}
{{- end -}}

{{/* The env of one app besides its ConfigMap: (dict "root" $ "name" NAME "app" ROW). Secrets by reference only. */}}
{{- define "feedback.appEnv" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $app := .app -}}
{{- $uses := $app.uses | default dict -}}
{{- $chartSecret := include "feedback.secretName" $root -}}
{{- $appSecret := $v.secrets.existingSecret | default $chartSecret -}}
- name: METRICS_PORT
  value: {{ $v.metrics.port | quote }}
{{- range $port, $p := $app.ports }}
{{- with $p.env }}
- name: {{ . }}
  value: {{ $p.port | toString | quote }}
{{- end }}
{{- end }}
{{- if $uses.mongodb }}
- name: MONGO_DB
  value: {{ .name | quote }}
{{ include "feedback.secretEnv" (dict "name" "MONGO_URL" "secret" ($v.mongodb.existingSecret | default $chartSecret) "key" (ternary $v.mongodb.existingSecretKey "mongo-url" (ne $v.mongodb.existingSecret ""))) }}
{{- if $v.mongodb.tls.caSecret }}
- name: MONGO_TLS_CA_FILE
  value: /etc/feedback/tls/mongodb-ca/ca.crt
{{- end }}
{{- end }}
{{- if $uses.kafka }}
{{- include "feedback.kafkaEnv" $root }}
{{- end }}
{{- if $uses.redis }}
{{ include "feedback.secretEnv" (dict "name" "REDIS_URL" "secret" ($v.redis.existingSecret | default $chartSecret) "key" (ternary $v.redis.existingSecretKey "redis-url" (ne $v.redis.existingSecret ""))) }}
{{- if $v.redis.tls.caSecret }}
- name: REDIS_TLS_CA_FILE
  value: /etc/feedback/tls/redis-ca/ca.crt
{{- end }}
{{- end }}
{{- if $uses.s3 }}
{{ include "feedback.secretEnv" (dict "name" "S3_ACCESS_KEY" "secret" ($v.s3.existingSecret | default $chartSecret) "key" (ternary $v.s3.accessKeyKey "s3-access-key" (ne $v.s3.existingSecret ""))) }}
{{ include "feedback.secretEnv" (dict "name" "S3_SECRET_KEY" "secret" ($v.s3.existingSecret | default $chartSecret) "key" (ternary $v.s3.secretKeyKey "s3-secret-key" (ne $v.s3.existingSecret ""))) }}
{{- end }}
{{- if and $uses.smsProvider (eq $v.smsProvider.kind "http") }}
{{ include "feedback.secretEnv" (dict "name" "SMS_HTTP_PROVIDER" "secret" ($v.smsProvider.existingSecret | default $chartSecret) "key" (ternary $v.smsProvider.existingSecretKey "sms-http-provider" (ne $v.smsProvider.existingSecret ""))) }}
{{- end }}
{{- if $uses.smsLimits }}
{{- /* The sms-limits ConfigMap, mounted as a directory (never subPath: kubelet then refreshes it), reloaded live. */}}
- name: SMS_LIMITS_FILE
  value: /etc/feedback/sms-limits/sms-limits.yaml
{{- end }}
{{- if and $uses.bootstrapOperator $v.bootstrapOperator.email }}
{{- if not $v.bootstrapOperator.passwordSecret }}{{ fail "bootstrapOperator.email needs bootstrapOperator.passwordSecret (a Secret of yours holding the password)" }}{{ end }}
- name: BOOTSTRAP_OPERATOR_EMAIL
  value: {{ $v.bootstrapOperator.email | quote }}
- name: BOOTSTRAP_OPERATOR_PASSWORD_FILE
  value: /etc/feedback/bootstrap-operator/password
{{- end }}
{{- if and $uses.sso $v.sso.issuerUrl }}
{{- if not $v.sso.clientId }}{{ fail "sso.issuerUrl needs sso.clientId" }}{{ end }}
- name: OIDC_ISSUER_URL
  value: {{ $v.sso.issuerUrl | quote }}
- name: OIDC_CLIENT_ID
  value: {{ $v.sso.clientId | quote }}
{{- with $v.sso.displayName }}
- name: OIDC_DISPLAY_NAME
  value: {{ . | quote }}
{{- end }}
{{- with $v.sso.redirectUrl }}
- name: OIDC_REDIRECT_URL
  value: {{ . | quote }}
{{- end }}
{{- if $v.sso.clientSecretSecret }}
- name: OIDC_CLIENT_SECRET_FILE
  value: /etc/feedback/sso/client-secret
{{- end }}
{{- end }}
{{- range $name, $ref := $app.secretEnv }}
{{ include "feedback.secretEnv" (dict "name" $name "secret" $appSecret "key" $ref.key "optional" $ref.optional) }}
{{- end }}
{{- range $name, $value := $app.env }}
- name: {{ $name }}
  value: {{ include "feedback.envValue" $value | quote }}
{{- end }}
{{- with $app.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
The Kafka TLS and SASL variables (packages/kit-kafka/README.md), refused here when the app would refuse
them at start-up. Files come from the Secrets mounted by feedback.securityVolumes.
*/}}
{{- define "feedback.kafkaEnv" -}}
{{- $k := .Values.kafka -}}
{{- if and (not $k.tls.enabled) (or $k.tls.caSecret $k.tls.clientCertSecret) -}}
{{- fail "kafka.tls.caSecret and kafka.tls.clientCertSecret need kafka.tls.enabled: true" -}}
{{- end -}}
{{- if $k.sasl.mechanism -}}
{{- if not $k.sasl.username }}{{ fail "kafka.sasl.mechanism needs kafka.sasl.username" }}{{ end -}}
{{- if not (or $k.sasl.password $k.sasl.existingSecret) }}{{ fail "kafka.sasl.mechanism needs kafka.sasl.password or kafka.sasl.existingSecret" }}{{ end -}}
{{- else if or $k.sasl.username $k.sasl.password $k.sasl.existingSecret -}}
{{- fail "kafka.sasl.username, password and existingSecret need kafka.sasl.mechanism (plain, scram-sha-256 or scram-sha-512)" -}}
{{- end -}}
{{- if $k.tls.enabled }}
- name: KAFKA_TLS
  value: "true"
{{- if $k.tls.caSecret }}
- name: KAFKA_TLS_CA_FILE
  value: /etc/feedback/tls/kafka-ca/ca.crt
{{- end }}
{{- if $k.tls.clientCertSecret }}
- name: KAFKA_TLS_CERT_FILE
  value: /etc/feedback/tls/kafka-client/tls.crt
- name: KAFKA_TLS_KEY_FILE
  value: /etc/feedback/tls/kafka-client/tls.key
{{- end }}
{{- if not $k.tls.checkServerName }}
- name: KAFKA_TLS_CHECK_SERVER_NAME
  value: "false"
{{- end }}
{{- end }}
{{- if $k.sasl.mechanism }}
- name: KAFKA_SASL_MECHANISM
  value: {{ $k.sasl.mechanism | quote }}
- name: KAFKA_SASL_USERNAME
  value: {{ $k.sasl.username | quote }}
- name: KAFKA_SASL_PASSWORD_FILE
  value: /etc/feedback/kafka-sasl/password
{{- end }}
{{- end -}}

{{/*
Secrets the stores' and brokers' security settings read as files: (dict "root" $ "app" ROW "part"
"volumes"|"mounts"). Each is mounted read-only under /etc/feedback, only in the apps that read it; key
files are 0440 (group-readable through the pod's fsGroup).
*/}}
{{- define "feedback.securityVolumes" -}}
{{- $v := .root.Values -}}
{{- $uses := .app.uses | default dict -}}
{{- $list := list -}}
{{- if and $uses.mongodb $v.mongodb.tls.caSecret }}{{ $list = append $list (dict "name" "mongodb-ca" "dir" "tls/mongodb-ca" "secret" $v.mongodb.tls.caSecret "items" (list (dict "key" $v.mongodb.tls.caSecretKey "path" "ca.crt"))) }}{{ end -}}
{{- if and $uses.redis $v.redis.tls.caSecret }}{{ $list = append $list (dict "name" "redis-ca" "dir" "tls/redis-ca" "secret" $v.redis.tls.caSecret "items" (list (dict "key" $v.redis.tls.caSecretKey "path" "ca.crt"))) }}{{ end -}}
{{- if and $uses.bootstrapOperator $v.bootstrapOperator.email $v.bootstrapOperator.passwordSecret }}{{ $list = append $list (dict "name" "bootstrap-operator" "dir" "bootstrap-operator" "secret" $v.bootstrapOperator.passwordSecret "items" (list (dict "key" $v.bootstrapOperator.passwordSecretKey "path" "password"))) }}{{ end -}}
{{- if and $uses.sso $v.sso.issuerUrl $v.sso.clientSecretSecret }}{{ $list = append $list (dict "name" "sso-client" "dir" "sso" "secret" $v.sso.clientSecretSecret "items" (list (dict "key" $v.sso.clientSecretKey "path" "client-secret"))) }}{{ end -}}
{{- if $uses.kafka -}}
{{- $k := $v.kafka -}}
{{- if and $k.tls.enabled $k.tls.caSecret }}{{ $list = append $list (dict "name" "kafka-ca" "dir" "tls/kafka-ca" "secret" $k.tls.caSecret "items" (list (dict "key" $k.tls.caSecretKey "path" "ca.crt"))) }}{{ end -}}
{{- if and $k.tls.enabled $k.tls.clientCertSecret }}{{ $list = append $list (dict "name" "kafka-client" "dir" "tls/kafka-client" "secret" $k.tls.clientCertSecret "items" (list (dict "key" $k.tls.clientCertKey "path" "tls.crt") (dict "key" $k.tls.clientKeyKey "path" "tls.key"))) }}{{ end -}}
{{- if $k.sasl.mechanism -}}
{{- $secret := $k.sasl.existingSecret | default (include "feedback.secretName" .root) -}}
{{- $key := ternary $k.sasl.existingSecretKey "kafka-sasl-password" (ne $k.sasl.existingSecret "") -}}
{{- $list = append $list (dict "name" "kafka-sasl" "dir" "kafka-sasl" "secret" $secret "items" (list (dict "key" $key "path" "password"))) -}}
{{- end -}}
{{- end -}}
{{- range $list }}
{{- if eq $.part "mounts" }}
- name: {{ .name }}
  mountPath: /etc/feedback/{{ .dir }}
  readOnly: true
{{- else }}
- name: {{ .name }}
  secret:
    secretName: {{ .secret }}
    defaultMode: 288 # 0440, written in decimal: YAML 1.2 readers take 0440 as four hundred and forty
    items:
      {{- range .items }}
      - { key: {{ .key | quote }}, path: {{ .path }} }
      {{- end }}
{{- end }}
{{- end }}
{{- end -}}

{{/*
The restricted Pod Security profile the chart promises (README.md "Restricted profile"), checked again here:
values.schema.json refuses the same, but a renderer may skip the schema (--skip-schema-validation), and the
namespace's admission would then refuse the pods only at ReplicaSet level, long after `helm upgrade` returned.
*/}}
{{- define "feedback.restricted" -}}
{{- $why := "is refused: the chart's pods run under Kubernetes' restricted Pod Security profile" -}}
{{- $pod := .Values.podSecurityContext | default dict -}}
{{- $c := .Values.containerSecurityContext | default dict -}}
{{- if eq (toString (get $pod "runAsNonRoot")) "false" }}{{ fail (printf "podSecurityContext.runAsNonRoot: false %s" $why) }}{{ end -}}
{{- if and (hasKey $pod "runAsUser") (not (kindIs "invalid" $pod.runAsUser)) (eq (int $pod.runAsUser) 0) }}{{ fail (printf "podSecurityContext.runAsUser: 0 (root) %s" $why) }}{{ end -}}
{{- with ($pod.seccompProfile | default dict).type }}{{ if not (has . (list "RuntimeDefault" "Localhost")) }}{{ fail (printf "podSecurityContext.seccompProfile.type: %s %s (RuntimeDefault or Localhost)" . $why) }}{{ end }}{{ end -}}
{{- if ne (toString (get $c "allowPrivilegeEscalation")) "false" }}{{ fail (printf "containerSecurityContext.allowPrivilegeEscalation: %v %s (it must be false)" (get $c "allowPrivilegeEscalation" | default "unset") $why) }}{{ end -}}
{{- if eq (toString (get $c "privileged")) "true" }}{{ fail (printf "containerSecurityContext.privileged: true %s" $why) }}{{ end -}}
{{- if ne (toString (get $c "runAsNonRoot")) "true" }}{{ fail (printf "containerSecurityContext.runAsNonRoot: %v %s (it must be true)" (get $c "runAsNonRoot") $why) }}{{ end -}}
{{- if and (hasKey $c "runAsUser") (not (kindIs "invalid" $c.runAsUser)) (eq (int $c.runAsUser) 0) }}{{ fail (printf "containerSecurityContext.runAsUser: 0 (root) %s" $why) }}{{ end -}}
{{- $caps := $c.capabilities | default dict -}}
{{- if not (has "ALL" ($caps.drop | default list)) }}{{ fail (printf "containerSecurityContext.capabilities.drop: %v %s (it must drop ALL)" ($caps.drop | default list) $why) }}{{ end -}}
{{- range ($caps.add | default list) }}{{ if ne . "NET_BIND_SERVICE" }}{{ fail (printf "containerSecurityContext.capabilities.add: %s %s (NET_BIND_SERVICE is the only one it allows)" . $why) }}{{ end }}{{ end -}}
{{- $seccomp := ($c.seccompProfile | default dict).type | default "" -}}
{{- if not (has $seccomp (list "RuntimeDefault" "Localhost")) }}{{ fail (printf "containerSecurityContext.seccompProfile.type: %q %s (RuntimeDefault or Localhost)" $seccomp $why) }}{{ end -}}
{{- with $c.procMount }}{{ if ne . "Default" }}{{ fail (printf "containerSecurityContext.procMount: %s %s" . $why) }}{{ end }}{{ end -}}
{{- end -}}
