package io.crater.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The pure parts of {@code crater job}: ssh argument vectors, ports, durations, words, clones, SSE, conditions. */
class JobCliPartsTest {

    static final Messages EN = new Messages(Locale.ENGLISH);
    static final Map<String, Object> CONNECT = Map.of("sshHost", "gw.example.org", "sshPort", 2222);

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "''                               | []                     | []",
                "nvidia-smi                       | []                     | [nvidia-smi]",
                "-i k nvidia-smi -L               | [-i, k]                | [nvidia-smi, -L]",
                "-t -o A=b -- ls -la              | [-t, -o, A=b]          | [ls, -la]",
                "-vv -ik python train.py          | [-vv, -ik]             | [python, train.py]",
                "-L 8080:127.0.0.1:80 -N          | [-L, 8080:127.0.0.1:80, -N] | []",
            })
    void sshArgumentsSplitAsSshReadsThem(String line, String options, String command) {
        List<String> args = line.isBlank() ? List.of() : List.of(line.split(" "));
        JobConnect.SshArgs split = JobConnect.SshArgs.split(args);
        assertThat(split.options().toString()).isEqualTo(options);
        assertThat(split.command().toString()).isEqualTo(command);
    }

    @Test
    void theSshCommandGoesThroughTheGatewayWithTheLoginOfThePod() {
        List<String> argv = JobConnect.sshCommand(
                "ssh", CONNECT, "ann+j7k3f9+worker-1", JobConnect.SshArgs.split(List.of("-i", "key", "hostname")));
        assertThat(argv)
                .containsExactly("ssh", "-p", "2222", "-i", "key", "ann+j7k3f9+worker-1@gw.example.org", "hostname");
        List<String> forward = JobConnect.forwardCommand(
                "/usr/bin/ssh",
                CONNECT,
                "ann+j7k3f9",
                JobConnect.ports("6006:7007", EN),
                JobConnect.SshArgs.split(List.of("-i", "key")));
        assertThat(forward)
                .containsExactly(
                        "/usr/bin/ssh",
                        "-N",
                        "-o",
                        "ExitOnForwardFailure=yes",
                        "-L",
                        "6006:127.0.0.1:7007",
                        "-p",
                        "2222",
                        "-i",
                        "key",
                        "ann+j7k3f9@gw.example.org");
    }

    @Test
    void portsAreLocalColonRemoteOrOneForBoth() {
        assertThat(JobConnect.ports("8888", EN)).containsExactly(8888, 8888);
        assertThat(JobConnect.ports("1:65535", EN)).containsExactly(1, 65535);
        for (String bad : List.of("0:80", "80:70000", "a:b", "1:2:3", "", ":80")) {
            assertThatThrownBy(() -> JobConnect.ports(bad, EN))
                    .isInstanceOfSatisfying(
                            CliException.class, e -> assertThat(e.exitCode()).isEqualTo(Exit.USAGE))
                    .hasMessageContaining("is not LOCAL:REMOTE");
        }
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({"90, PT1M30S", "500ms, PT0.5S", "30s, PT30S", "5m, PT5M", "2h, PT2H", "1d, PT24H", "1h30m, PT1H30M"})
    void durationsReadAsTheServerWritesThem(String text, String iso) {
        assertThat(JobWait.duration(text, EN)).isEqualTo(Duration.parse(iso));
    }

    @Test
    void aBadDurationIsAUsageError() {
        for (String bad : List.of("soon", "5 m", "1h30", "m5", "-3s")) {
            assertThatThrownBy(() -> JobWait.duration(bad, EN))
                    .isInstanceOfSatisfying(
                            CliException.class, e -> assertThat(e.exitCode()).isEqualTo(Exit.USAGE))
                    .hasMessageContaining("is not a duration");
        }
    }

    @ParameterizedTest(name = "{0} for {1}")
    @CsvSource({
        "running, Running, true",
        "running, Succeeded, true",
        "running, Pending, false",
        "running, Failed, false",
        "started, Failed, true",
        "done, Stopped, true",
        "done, Running, false",
        "Pending, Pending, true",
        "Pending, Running, false"
    })
    void conditionsAreMetByTheirStates(String target, String state, boolean met) {
        assertThat(JobWait.reached(target, state)).isEqualTo(met);
    }

    @Test
    void theConditionIsReadWhateverItsCase() {
        assertThat(JobWait.target("DONE", EN)).isEqualTo("done");
        assertThat(JobWait.target("pending", EN)).isEqualTo("Pending");
        assertThatThrownBy(() -> JobWait.target("asleep", EN)).hasMessageContaining("--for 'asleep'");
    }

    @Test
    void valuesTakeTheTypeOfTheirField() {
        assertThat(JobActions.typed("resources.accelerators", "2", null)).isEqualTo(2);
        assertThat(JobActions.typed("backfill", "true", null)).isEqualTo(true);
        assertThat(JobActions.typed("command", "python 'my script.py' --n \"1 2\"", null))
                .isEqualTo(List.of("python", "my script.py", "--n", "1 2"));
        assertThat(JobActions.typed("resources.cpu", "4", "2")).isEqualTo("4");
        assertThatThrownBy(() -> JobActions.typed("workers", "two", null)).hasMessageContaining("not a whole number");
        assertThatThrownBy(() -> JobActions.words("echo 'open")).hasMessageContaining("unterminated quote");
    }

    @Test
    void aTemplateJobIsClonedAsATemplateJobWithItsValuesChanged() {
        Map<String, Object> ref =
                Map.of("id", "batch", "version", 3, "parameters", Map.of("command", "echo a", "cpu", 2));
        Map<String, Object> spec = Map.of("name", "run", "priority", "high", "workingDir", "/crater/user/x");
        Map<String, Object> body =
                JobClones.fromTemplate("j1", spec, ref, new LinkedHashMap<>(Map.of("command", "echo b")), "run (copy)");
        assertThat(body)
                .containsEntry("name", "run (copy)")
                .containsEntry("priority", "high")
                .containsEntry("workingDir", "/crater/user/x")
                .containsEntry("sourceJob", "j1");
        assertThat(Values.map(Values.at(body, "template.parameters")))
                .containsExactlyInAnyOrderEntriesOf(Map.of("command", "echo b", "cpu", "2"));
        assertThat(Values.at(body, "template.version")).isEqualTo(3);
    }

    @Test
    void aFullSpecIsCopiedWithFieldsChanged() {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("name", "train");
        spec.put("image", "python:3.12");
        spec.put("template", null);
        spec.put("resources", new LinkedHashMap<>(Map.of("cpu", "2", "accelerators", 4)));
        spec.put("command", new ArrayList<>(List.of("python", "a.py")));
        Map<String, Object> body = JobClones.fromSpec(
                "j1",
                spec,
                new LinkedHashMap<>(
                        Map.of("resources.accelerators", "1", "env.SEED", "7", "command", "python b.py", "image", "")),
                "train (copy)");
        assertThat(body).doesNotContainKeys("template", "image").containsEntry("sourceJob", "j1");
        assertThat(Values.at(body, "resources.accelerators")).isEqualTo(1);
        assertThat(Values.at(body, "env.SEED")).isEqualTo("7");
        assertThat(body.get("command")).isEqualTo(List.of("python", "b.py"));
        assertThat(Values.at(spec, "resources.accelerators"))
                .as("the original is untouched")
                .isEqualTo(4);
    }

    @Test
    void serverSentEventsAreReadWithTheirNamesAndDataLines() throws Exception {
        String stream = ": keep-alive\n\nid: 1\ndata: step 1\n\nevent: job\ndata: {\"a\":\ndata: 1}\n\ndata:no space\n";
        List<String> seen = new ArrayList<>();
        JobLogs.events(
                new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)),
                (name, data) -> seen.add(name + "=" + data));
        assertThat(seen).containsExactly("message=step 1", "job={\"a\":\n1}", "message=no space");
    }

    @Test
    void podsAreNamedByTaskAndIndexOrInFull() {
        assertThat(JobLogs.podName("j1", "worker-1")).isEqualTo("c-j1-worker-1");
        assertThat(JobLogs.podName("j1", "c-j1-master-0")).isEqualTo("c-j1-master-0");
        assertThat(JobLogs.podName("j1", null)).isNull();
    }

    @Test
    void theAcceleratorsColumnShowsEveryResourceButCpuAndMemory() {
        Map<String, Object> job =
                Map.of("requests", new LinkedHashMap<>(Map.of("cpu", "8", "memory", "64Gi", "nvidia-a100-80gb", "4")));
        assertThat(JobCommands.accelerators(job)).isEqualTo("4 nvidia-a100-80gb");
        assertThat(JobCommands.accelerators(Map.of("requests", Map.of("cpu", "1"))))
                .isEmpty();
    }
}
