package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The simulated shell as a table: command lines and what they print, in a pod built as Crater builds one (user
 * {@code tess}, UID 1001, the account {@code lab}'s GID 2001, the spaces mounted by subPath, the public one read-only,
 * two A100s) over a temporary spaces folder.
 */
class SimShellTest {

    static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    @TempDir
    Path tmp;

    Path spaces;

    @BeforeEach
    void spaces() throws Exception {
        spaces = tmp.resolve("spaces");
        Path user = Files.createDirectories(spaces.resolve("users/tess"));
        Files.createDirectories(spaces.resolve("accounts/lab"));
        Files.createDirectories(spaces.resolve("public"));
        Files.writeString(user.resolve("train.py"), "print('hello')\nprint('world')\n");
        Files.writeString(spaces.resolve("public/README"), "shared models\n");
        Files.writeString(tmp.resolve("secret.txt"), "host secret\n");
        // A link that, followed on the host, would reach tmp/secret.txt: in the container it points at /secret.txt.
        Files.createSymbolicLink(user.resolve("leak"), Path.of("../../../secret.txt"));
    }

    /** A host that backs the shared claim with the temporary spaces and reads the GPUs at 73 % and half memory. */
    ShellPod.Host host() {
        return new ShellPod.Host() {
            @Override
            public Path claim(String claimName) {
                return claimName.equals("crater-shared") ? spaces : null;
            }

            @Override
            public Path scratch(String namespace, String pod) {
                return tmp.resolve("scratch").resolve(namespace).resolve(pod);
            }

            @Override
            public GpuExporter.Reading reading(Pod pod) {
                return new GpuExporter.Reading(73, 50);
            }

            @Override
            public String secret(String namespace, String name, String key) {
                return name.equals("c-j1-app") ? "s3cret" : null;
            }
        };
    }

    static Pod crater(String resource, int count) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("c-j1-main-0")
                .withNamespace("crater-jobs")
                .withLabels(Map.of("crater.io/user-id", "7"))
                .endMetadata()
                .withNewSpec()
                .withHostname("c-j1-main-0")
                .withNodeName("a100-0")
                .withNewSecurityContext()
                .withRunAsUser(1001L)
                .withRunAsGroup(2001L)
                .endSecurityContext()
                .addNewContainer()
                .withName("main")
                .addNewEnv()
                .withName("CRATER_USER")
                .withValue("tess")
                .endEnv()
                .addNewEnv()
                .withName("CRATER_ACCOUNT")
                .withValue("lab")
                .endEnv()
                .addNewEnv()
                .withName("CRATER_USER_SPACE")
                .withValue("/crater/user")
                .endEnv()
                .addNewEnv()
                .withName("JUPYTER_TOKEN")
                .withNewValueFrom()
                .withNewSecretKeyRef("token", "c-j1-app", false)
                .endValueFrom()
                .endEnv()
                .withWorkingDir("/crater/user")
                .withNewResources()
                .withLimits(count == 0 ? Map.of("cpu", new Quantity("2")) : Map.of(resource, new Quantity("" + count)))
                .endResources()
                .addNewVolumeMount()
                .withName("crater-spaces")
                .withMountPath("/crater/user")
                .withSubPath("users/tess")
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("crater-spaces")
                .withMountPath("/crater/account")
                .withSubPath("accounts/lab")
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("crater-spaces")
                .withMountPath("/crater/public")
                .withSubPath("public")
                .withReadOnly(true)
                .endVolumeMount()
                .endContainer()
                .addNewVolume()
                .withName("crater-spaces")
                .withNewPersistentVolumeClaim("crater-shared", false)
                .endVolume()
                .endSpec()
                .build();
    }

    static Node node(Map<String, String> labels) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName("a100-0")
                .withLabels(labels)
                .endMetadata()
                .withNewStatus()
                .withNewNodeInfo()
                .withKernelVersion("6.1.0-sim")
                .withArchitecture("amd64")
                .endNodeInfo()
                .endStatus()
                .build();
    }

    static final Map<String, String> A100 = Map.of(
            "nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB",
            "nvidia.com/gpu.memory", "81920",
            "nvidia.com/cuda.driver.major", "550");

    SimShell shell(Pod pod, Node node) {
        SimShell sh = new SimShell(ShellPod.of(pod, null, node, host()), Clock.fixed(NOW, ZoneOffset.UTC));
        sh.startedAs("bash");
        return sh;
    }

    SimShell tess() {
        return shell(crater("nvidia.com/gpu", 2), node(A100));
    }

    static Stream<Arguments> lines() {
        String readOnly = "Read-only file system";
        return Stream.of(
                // expansion and quoting
                row("echo $HOME", "/crater/user\n", "", 0),
                row("echo ~ ~/x '~' \"~\"", "/crater/user /crater/user/x ~ ~\n", "", 0),
                row("echo \"a  b\" 'c $HOME' \\$HOME", "a  b c $HOME $HOME\n", "", 0),
                row("X='a  b'; echo $X; echo \"$X\"; echo ${X}c", "a b\na  b\na bc\n", "", 0),
                row("echo $UNSET. \"${HOME}\"", ". /crater/user\n", "", 0),
                row("echo $JUPYTER_TOKEN", "s3cret\n", "", 0),
                // operators and exit codes
                row("false; echo $?", "1\n", "", 0),
                row("false && echo no || echo yes", "yes\n", "", 0),
                row("true && echo one; nosuch || echo two", "one\ntwo\n", "bash: nosuch: command not found\n", 0),
                row("nosuch 2> /dev/null; echo $?", "127\n", "", 0),
                row("python3 --version", "", "bash: python3: command not found\n", 127),
                row("exit 3", "", "", 3),
                // pipes and redirections between built-ins
                row("echo a b | wc -w", "2\n", "", 0),
                row("nosuch 2>&1 | wc -l", "1\n", "", 0),
                row("echo err >&2", "", "err\n", 0),
                row("env | grep ^CRATER_USER=", "CRATER_USER=tess\n", "", 0),
                row("export A=1; B=2; env | grep -c '^[AB]='", "1\n", "", 0),
                row("cat < train.py | grep -n world", "2:print('world')\n", "", 0),
                // identity
                row("id", "uid=1001(tess) gid=2001(lab) groups=2001(lab)\n", "", 0),
                row("whoami; hostname; id -u; id -gn", "tess\nc-j1-main-0\n1001\nlab\n", "", 0),
                row("uname -a", "Linux c-j1-main-0 6.1.0-sim #1 SMP x86_64 GNU/Linux\n", "", 0),
                // files of the mounted spaces
                row("pwd; cd; pwd; cd /tmp && pwd; cd -", "/crater/user\n/crater/user\n/tmp\n/crater/user\n", "", 0),
                row("touch a.txt && ls -a", ".\n..\na.txt\nleak\ntrain.py\n", "", 0),
                row("ls / /crater", "/:\ncrater\ntmp\n\n/crater:\naccount\npublic\nuser\n", "", 0),
                row("mkdir -p d/e && echo hi > d/e/f && cat d/e/f", "hi\n", "", 0),
                row("echo one > f; echo two >> f; cat f; head -n 1 f; tail -1 f", "one\ntwo\none\ntwo\n", "", 0),
                row("echo hi > no/x.txt", "", "bash: no/x.txt: No such file or directory\n", 1),
                row("cat /crater/public/README", "shared models\n", "", 0),
                row("cd /crater/public && touch x", "", "touch: cannot touch 'x': " + readOnly + "\n", 1),
                row("echo x > /crater/public/x", "", "bash: /crater/public/x: " + readOnly + "\n", 1),
                row("rm /crater/public/README", "", "rm: cannot remove '/crater/public/README': " + readOnly + "\n", 1),
                row(
                        "mkdir /crater/public/d",
                        "",
                        "mkdir: cannot create directory '/crater/public/d': " + readOnly + "\n",
                        1),
                row("touch /x", "", "touch: cannot touch '/x': Permission denied\n", 1),
                row("rm -r /crater/user", "", "rm: cannot remove '/crater/user': Device or resource busy\n", 1),
                row("cd /nope", "", "bash: cd: /nope: No such file or directory\n", 1),
                // nothing outside the mounted roots: .. stops at /, links are followed inside the container
                row("cd ../../../..; pwd", "/\n", "", 0),
                row("cat ../../../secret.txt", "", "cat: ../../../secret.txt: No such file or directory\n", 1),
                row("cat leak", "", "cat: leak: No such file or directory\n", 1),
                row("ls -l leak | grep -c -- '-> ../../../secret.txt'", "1\n", "", 0),
                // accelerators
                row("nvidia-smi -L | wc -l", "2\n", "", 0),
                row("npu-smi info", "", "bash: npu-smi: command not found\n", 127),
                // what the shell cannot read
                row("echo a &&", "", "bash: syntax error near unexpected token `newline'\n", 2),
                row("| ls", "", "bash: syntax error near unexpected token `|'\n", 2),
                row("echo 'x", "", "bash: unexpected EOF while looking for matching `''\n", 2),
                row("sleep 1 &", "", "bash: running in the background (&) is not supported\n", 2));
    }

    static Arguments row(String line, String out, String err, int status) {
        return Arguments.of(line, out, err, status);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lines")
    void aLinePrintsWhatAShellWould(String line, String out, String err, int status) {
        SimShell.Result r = tess().run(line);
        assertThat(r.stdout()).as("stdout of " + line).isEqualTo(out);
        assertThat(r.stderr()).as("stderr of " + line).isEqualTo(err);
        assertThat(r.status()).as("status of " + line).isEqualTo(status);
    }

    @Test
    void writesLandInTheUsersSpaceOnTheHostAndNowhereElse() throws Exception {
        SimShell sh = tess();
        assertThat(sh.run("touch a.txt && echo data > /crater/account/b.txt").status())
                .isZero();
        assertThat(spaces.resolve("users/tess/a.txt")).exists();
        assertThat(spaces.resolve("accounts/lab/b.txt")).hasContent("data");
        assertThat(sh.run("echo x > ../../../secret.txt").stderr()).contains("Permission denied");
        assertThat(tmp.resolve("secret.txt")).hasContent("host secret");
        assertThat(sh.run("rm leak").status()).isZero();
        assertThat(tmp.resolve("secret.txt")).exists(); // the link went, not what it pointed at
        // The shell's clock is fixed; the file's time is the host's, so it is set to an hour before that clock.
        java.nio.file.Files.setLastModifiedTime(
                spaces.resolve("users/tess/a.txt"), java.nio.file.attribute.FileTime.from(NOW.minusSeconds(3600)));
        SimShell.Result long_ = sh.run("ls -la");
        assertThat(long_.stdout().lines().toList()).first().asString().startsWith("total ");
        assertThat(long_.stdout()).containsPattern("(?m)^-rw.* 1 tess lab +0 Dec  1 11:00 a\\.txt$");
        assertThat(long_.stdout()).containsPattern("(?m)^drwx.* tess lab .* \\.$");
    }

    @Test
    void onATerminalLsListsInColumnsUnlessAskedForOneNamePerLine() {
        SimShell sh = tess();
        sh.tty(true);
        sh.run("mkdir d && touch d/README.md d/test.csv d/train.csv");
        assertThat(sh.run("ls d").stdout()).isEqualTo("README.md  test.csv   train.csv\n");
        assertThat(sh.run("ls -1 d").stdout()).isEqualTo("README.md\ntest.csv\ntrain.csv\n");
        assertThat(sh.run("ls -1a d").stdout()).isEqualTo(".\n..\nREADME.md\ntest.csv\ntrain.csv\n");
    }

    @Test
    void thePromptShowsTheUserThePodAndTheDirectoryWithTildeForHome() {
        SimShell sh = tess();
        assertThat(sh.prompt()).isEqualTo("tess@c-j1-main-0:~$ ");
        sh.run("mkdir sub; cd sub");
        assertThat(sh.prompt()).isEqualTo("tess@c-j1-main-0:~/sub$ ");
        sh.run("cd /tmp");
        assertThat(sh.prompt()).isEqualTo("tess@c-j1-main-0:/tmp$ ");
    }

    @Test
    void aPodWithoutAUserRunsAsRootInItsOwnScratchFileSystem() {
        Pod bare = new PodBuilder()
                .withNewMetadata()
                .withName("ex-1")
                .withNamespace("ns")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .endContainer()
                .endSpec()
                .build();
        SimShell sh = shell(bare, null);
        assertThat(sh.prompt()).isEqualTo("root@ex-1:~# ");
        SimShell.Result r = sh.run("echo $HOME; echo hi > note; cat note; nvidia-smi");
        assertThat(r.stdout()).isEqualTo("/root\nhi\n" + SmiTables.NO_DRIVER);
        assertThat(r.status()).isEqualTo(SmiTables.NO_DRIVER_STATUS);
        assertThat(tmp.resolve("scratch/ns/ex-1/rootfs/root/note")).hasContent("hi");
    }

    @Test
    void nvidiaSmiListsTheTwoCardsWithTheExportersUtilisationAndMemory() {
        SimShell.Result r = tess().run("nvidia-smi");
        assertThat(r.status()).isZero();
        List<String> lines = r.stdout().lines().toList();
        assertThat(lines.get(0)).isEqualTo("Tue Dec  1 12:00:00 2026");
        assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(l).hasSize(91));
        assertThat(lines.get(2))
                .contains("NVIDIA-SMI 550")
                .contains("Driver Version: 550")
                .contains("CUDA Version: N/A");
        assertThat(lines).filteredOn(l -> l.contains("NVIDIA A100 SXM4 80GB")).hasSize(2);
        assertThat(lines.stream().filter(l -> l.startsWith("|   0 ") || l.startsWith("|   1 ")))
                .hasSize(2);
        assertThat(lines)
                .filteredOn(l -> l.contains("40960MiB /  81920MiB") && l.contains("73%"))
                .hasSize(2);
        assertThat(lines).anyMatch(l -> l.contains("No running processes found"));
    }

    @Test
    void npuSmiListsTheAscendCards() {
        Pod pod = crater("huawei.com/Ascend910", 1);
        SimShell sh = shell(
                pod,
                node(Map.of("node.kubernetes.io/npu.chip.name", "910B", "sim.crater.io/accelerator-memory", "65536")));
        SimShell.Result r = sh.run("npu-smi info");
        assertThat(r.status()).isZero();
        assertThat(r.stdout()).contains("| 0     910B ").contains("| 73 ").contains("32768 / 65536");
        assertThat(sh.run("nvidia-smi").status()).isEqualTo(SmiTables.NO_DRIVER_STATUS);
    }

    @Test
    void aCommandGivenAsWordsRunsWithoutTheShellReadingIt() {
        SimShell sh = tess();
        assertThat(sh.runArgv(List.of("echo", "$HOME", "a;b")).stdout()).isEqualTo("$HOME a;b\n");
        SimShell.Result r = sh.runArgv(List.of("sh", "-c", "echo $HOME; exit 4"));
        assertThat(r.stdout()).isEqualTo("/crater/user\n");
        assertThat(r.status()).isEqualTo(4);
        assertThat(r.exit()).isTrue();
        assertThat(sh.runArgv(List.of("bash", "-lc", "false")).status()).isEqualTo(1);
    }
}
