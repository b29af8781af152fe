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

{{/*
The seven apps, in the order their objects are rendered.
*/}}
{{- define "feedback.appNames" -}}
[gateway, survey, messaging, file, flow, shortener, webhooks]
{{- end -}}

{{/*
What the templates need to know of each app: its ports, and for a gRPC service the apps that call it
(its NetworkPolicy admits those only). The ports are the apps' own defaults in the image.
*/}}
{{- define "feedback.apps" -}}
gateway:
  ports:
    - { name: api, containerPort: 8080, servicePort: 80 }
    - { name: links, containerPort: 8081, servicePort: 81 }
survey:
  grpcPort: 50053
  callers: [gateway, messaging]
  ports:
    - { name: grpc, containerPort: 50053, servicePort: 50053, appProtocol: grpc }
messaging:
  grpcPort: 50056
  callers: [gateway]
  ports:
    - { name: grpc, containerPort: 50056, servicePort: 50056, appProtocol: grpc }
    - { name: dlr, containerPort: 8091, servicePort: 8091 }
file:
  grpcPort: 50054
  callers: [gateway, messaging]
  ports:
    - { name: grpc, containerPort: 50054, servicePort: 50054, appProtocol: grpc }
flow:
  grpcPort: 50052
  callers: [gateway, survey]
  ports:
    - { name: grpc, containerPort: 50052, servicePort: 50052, appProtocol: grpc }
shortener:
  grpcPort: 50055
  callers: [gateway, messaging]
  ports:
    - { name: grpc, containerPort: 50055, servicePort: 50055, appProtocol: grpc }
webhooks:
  grpcPort: 50057
  callers: [gateway]
  ports:
    - { name: grpc, containerPort: 50057, servicePort: 50057, appProtocol: grpc }
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

{{/* The image: repository:tag, @digest when one is given. Never `latest`. */}}
{{- define "feedback.image" -}}
{{- $tag := .Values.image.tag | default .Chart.AppVersion | toString -}}
{{- if eq $tag "latest" -}}
{{- fail "image.tag: latest is refused; pin a version (or set image.digest)" -}}
{{- end -}}
{{- printf "%s:%s" .Values.image.repository $tag -}}
{{- with .Values.image.digest }}@{{ . }}{{ end -}}
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
{{- $spec := index (include "feedback.apps" .root | fromYaml) .app -}}
{{- printf "dns:///%s.%s.svc.%s:%d" (include "feedback.grpcServiceName" .) .root.Release.Namespace .root.Values.clusterDomain (int $spec.grpcPort) -}}
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

{{- define "feedback.dlrPublicUrl" -}}
{{- .Values.smsProvider.dlrPublicUrl | default (printf "http://%s-messaging.%s.svc:8091" (include "feedback.fullname" .) .Release.Namespace) -}}
{{- end -}}

{{/* The env of one app besides the shared ConfigMap: (dict "root" $ "app" NAME). Secrets by reference only. */}}
{{- define "feedback.appEnv" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $chartSecret := include "feedback.secretName" $root -}}
{{- $appSecret := $v.secrets.existingSecret | default $chartSecret -}}
{{- $spec := index (include "feedback.apps" $root | fromYaml) .app -}}
- name: MONGO_DB
  value: {{ .app }}
- name: METRICS_PORT
  value: {{ $v.metrics.port | quote }}
{{ include "feedback.secretEnv" (dict "name" "MONGO_URL" "secret" ($v.mongodb.existingSecret | default $chartSecret) "key" (ternary $v.mongodb.existingSecretKey "mongo-url" (ne $v.mongodb.existingSecret ""))) }}
{{- if $v.mongodb.tls.caSecret }}
- name: MONGO_TLS_CA_FILE
  value: /etc/feedback/tls/mongodb-ca/ca.crt
{{- end }}
{{- if has .app (include "feedback.kafkaApps" $root | fromYamlArray) }}
{{- include "feedback.kafkaEnv" $root }}
{{- end }}
{{- if has .app (include "feedback.personalDataApps" $root | fromYamlArray) }}
{{ include "feedback.secretEnv" (dict "name" "PERSONAL_DATA_KEY" "secret" $appSecret "key" "personal-data-key") }}
{{ include "feedback.secretEnv" (dict "name" "PERSONAL_DATA_PREVIOUS_KEYS" "secret" $appSecret "key" "personal-data-previous-keys" "optional" true) }}
{{- end }}
{{- if $spec.grpcPort }}
- name: GRPC_PORT
  value: {{ $spec.grpcPort | quote }}
{{- end }}
{{- if eq .app "gateway" }}
- name: API_PORT
  value: "8080"
- name: LINK_PORT
  value: "8081"
{{ include "feedback.secretEnv" (dict "name" "ADMIN_TOKEN" "secret" $appSecret "key" "admin-token") }}
{{ include "feedback.secretEnv" (dict "name" "REDIS_URL" "secret" ($v.redis.existingSecret | default $chartSecret) "key" (ternary $v.redis.existingSecretKey "redis-url" (ne $v.redis.existingSecret ""))) }}
{{- if $v.redis.tls.caSecret }}
- name: REDIS_TLS_CA_FILE
  value: /etc/feedback/tls/redis-ca/ca.crt
{{- end }}
{{- /* The sms-limits ConfigMap, mounted as a directory (never subPath: kubelet then refreshes it), reloaded live. */}}
- name: SMS_LIMITS_FILE
  value: /etc/feedback/sms-limits/sms-limits.yaml
{{- end }}
{{- if eq .app "file" }}
{{ include "feedback.secretEnv" (dict "name" "S3_ACCESS_KEY" "secret" ($v.s3.existingSecret | default $chartSecret) "key" (ternary $v.s3.accessKeyKey "s3-access-key" (ne $v.s3.existingSecret ""))) }}
{{ include "feedback.secretEnv" (dict "name" "S3_SECRET_KEY" "secret" ($v.s3.existingSecret | default $chartSecret) "key" (ternary $v.s3.secretKeyKey "s3-secret-key" (ne $v.s3.existingSecret ""))) }}
{{- end }}
{{- if eq .app "messaging" }}
- name: DLR_PORT
  value: "8091"
{{ include "feedback.secretEnv" (dict "name" "DLR_SECRET" "secret" $appSecret "key" "dlr-secret") }}
{{ include "feedback.secretEnv" (dict "name" "SMS_PROVIDER_SECRETS_KEY" "secret" $appSecret "key" "sms-provider-secrets-key" "optional" true) }}
{{ include "feedback.secretEnv" (dict "name" "SMS_PROVIDER_SECRETS_PREVIOUS_KEYS" "secret" $appSecret "key" "sms-provider-secrets-previous-keys" "optional" true) }}
{{- if eq $v.smsProvider.kind "http" }}
{{ include "feedback.secretEnv" (dict "name" "SMS_HTTP_PROVIDER" "secret" ($v.smsProvider.existingSecret | default $chartSecret) "key" (ternary $v.smsProvider.existingSecretKey "sms-http-provider" (ne $v.smsProvider.existingSecret ""))) }}
{{- end }}
{{- end }}
{{- if eq .app "webhooks" }}
{{- $w := $v.webhooks }}
{{ include "feedback.secretEnv" (dict "name" "WEBHOOKS_SECRET_KEY" "secret" $appSecret "key" "webhooks-secret-key") }}
{{ include "feedback.secretEnv" (dict "name" "WEBHOOKS_SECRET_PREVIOUS_KEYS" "secret" $appSecret "key" "webhooks-secret-previous-keys" "optional" true) }}
- name: WEBHOOKS_ALLOW_HTTP
  value: {{ $w.allowHttp | default false | quote }}
- name: WEBHOOKS_ALLOWED_CIDRS
  value: {{ join "," $w.allowedCidrs | quote }}
{{- with $w.retrySchedule }}
- name: WEBHOOKS_RETRY_SCHEDULE
  value: {{ . | quote }}
{{- end }}
- name: WEBHOOKS_TIMEOUT_MS
  value: {{ $w.timeoutMs | int64 | quote }}
- name: WEBHOOKS_MAX_ENDPOINTS_PER_ACCOUNT
  value: {{ $w.maxEndpointsPerAccount | int64 | quote }}
- name: WEBHOOKS_TEST_SENDS_PER_MINUTE
  value: {{ $w.testSendsPerMinute | int64 | quote }}
{{- end }}
{{- with (index $v .app).env }}
{{ toYaml . }}
{{- end }}
{{- end -}}


{{/* The apps that hash or seal personal data (kit-core PersonalDataProtector): they get PERSONAL_DATA_KEY. */}}
{{- define "feedback.personalDataApps" -}}
[survey, messaging, webhooks]
{{- end -}}

{{/* The apps that talk to Kafka (all but flow): they get the Kafka security env and mounts. */}}
{{- define "feedback.kafkaApps" -}}
[gateway, survey, messaging, file, shortener, webhooks]
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
Secrets the stores' and brokers' security settings read as files: (dict "root" $ "app" NAME "part"
"volumes"|"mounts"). Each is mounted read-only under /etc/feedback, only in the apps that read it; key
files are 0440 (group-readable through the pod's fsGroup).
*/}}
{{- define "feedback.securityVolumes" -}}
{{- $v := .root.Values -}}
{{- $list := list -}}
{{- with $v.mongodb.tls.caSecret }}{{ $list = append $list (dict "name" "mongodb-ca" "dir" "tls/mongodb-ca" "secret" . "items" (list (dict "key" $v.mongodb.tls.caSecretKey "path" "ca.crt"))) }}{{ end -}}
{{- if and (eq .app "gateway") $v.redis.tls.caSecret }}{{ $list = append $list (dict "name" "redis-ca" "dir" "tls/redis-ca" "secret" $v.redis.tls.caSecret "items" (list (dict "key" $v.redis.tls.caSecretKey "path" "ca.crt"))) }}{{ end -}}
{{- if has .app (include "feedback.kafkaApps" .root | fromYamlArray) -}}
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
