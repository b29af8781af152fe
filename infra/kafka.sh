#!/usr/bin/env bash
# Kafka 3.9.1, single node in KRaft mode, from Maven Central jars.
source "$(dirname "$0")/lib.sh"
KAFKA_VERSION=3.9.1
KAFKA_HOME="$CACHE_DIR/kafka-$KAFKA_VERSION"
NAME=kafka

provision() {
  [ -f "$KAFKA_HOME/.complete" ] && return 0
  require java "Install a Java 17+ runtime, e.g. 'apt-get install -y openjdk-17-jre-headless'."
  require mvn "Install Maven, e.g. 'apt-get install -y maven'."
  log "fetching Kafka $KAFKA_VERSION jars from Maven Central (once)"
  mkdir -p "$KAFKA_HOME"
  cat >"$KAFKA_HOME/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.feedback</groupId><artifactId>kafka-runtime</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$KAFKA_VERSION</version></dependency>
    <!-- Kafka 3.9 leaves reload4j out of its POM, but kafka.utils.Log4jController needs it. -->
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>1.7.36</version></dependency>
  </dependencies>
</project>
POM
  (cd "$KAFKA_HOME" && mvn -q -B dependency:copy-dependencies -DoutputDirectory=lib -DincludeScope=runtime) \
    || die "could not fetch Kafka jars with Maven"
  touch "$KAFKA_HOME/.complete"
}

start() {
  if is_running "$NAME"; then wait_for "$NAME" 90 ready; return 0; fi
  provision
  local dir="$DATA_DIR/kafka" conf="$LOCAL_DIR/kafka"
  mkdir -p "$dir" "$conf"
  cat >"$conf/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$dir
num.partitions=3
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
log.retention.hours=24
PROPS
  cat >"$conf/log4j.properties" <<'L4J'
log4j.rootLogger=WARN, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaRaftServer=INFO
L4J
  local cp="$KAFKA_HOME/lib/*"
  if [ ! -f "$dir/meta.properties" ]; then
    local id; id="$(java -cp "$cp" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n 1)"
    java -Dlog4j.configuration="file:$conf/log4j.properties" -cp "$cp" kafka.tools.StorageTool \
      format -t "$id" -c "$conf/server.properties" >>"$LOG_DIR/$NAME.log" 2>&1 || die "kafka storage format failed"
  fi
  start_bg "$NAME" java -Xms128m -Xmx512m -XX:+UseSerialGC -Dlog4j.configuration="file:$conf/log4j.properties" \
    -cp "$cp" kafka.Kafka "$conf/server.properties"
  wait_for "$NAME" 120 ready
  log "kafka ready on 127.0.0.1:$KAFKA_PORT"
}

ready() { port_open "$KAFKA_PORT" && grep -q "Kafka Server started" "$LOG_DIR/$NAME.log"; }

stop() { stop_pid "$NAME"; }
status() { is_running "$NAME" && ready && echo "kafka: up (127.0.0.1:$KAFKA_PORT)" || echo "kafka: down"; }

run_subcommand "provision start stop status ready" "$@"
