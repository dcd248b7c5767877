package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.kube.KubeClients;
import io.crater.volcano.VolcanoJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Crater killed with SIGKILL while its jobs run, against a cluster that keeps running ({@code crater sim}):
 * jobs that finish and a Volcano Job deleted while it is down are caught up after the restart, with their
 * states, history and archived logs.
 */
class RecoveryIT {

    static final String PW = "Recovery-pass-2026";

    @Test
    void killNineWhileJobsRunLosesNothing() throws Exception {
        Path base = TestDirs.create("crater-recovery");
        try (PackagedApp sim =
                new PackagedApp(base.resolve("sim"), "sim", Map.of(), "Simulated cluster API: ").start()) {
            String api = sim.lineAfter("Simulated cluster API: ");
            Map<String, String> env = Map.of(
                    "CRATER_CLUSTER_MODE", "kubernetes",
                    "KUBERNETES_MASTER", api,
                    "KUBERNETES_AUTH_TRYKUBECONFIG", "false",
                    "KUBERNETES_AUTH_TRYSERVICEACCOUNT", "false");
            Path home = base.resolve("crater");
            String finishes;
            String deleted;
            String keepsRunning;
            String token;
            try (PackagedApp first = new PackagedApp(home, "server", env, "Console: http://").start()) {
                String[] admin = first.initialAdmin();
                String adminToken = first.login(admin[0], admin[1]);
                expect(
                        first.call(
                                "POST",
                                "/api/v1/users",
                                adminToken,
                                null,
                                "{\"username\":\"rc.user\",\"displayName\":\"R\",\"password\":\"" + PW + "\"}"),
                        201);
                token = first.login("rc.user", PW);
                finishes = submit(first, token, "finishes", "15s");
                deleted = submit(first, token, "deleted", null);
                keepsRunning = submit(first, token, "keeps-running", null);
                for (String id : new String[] {finishes, deleted, keepsRunning}) {
                    awaitState(first, token, id, "Running", 60);
                }
                first.kill9();
            }
            // While Crater is down: one job finishes, one Volcano Job is deleted by someone else.
            try (KubernetesClient k8s = KubeClients.forUrl(api)) {
                k8s.resources(VolcanoJob.class)
                        .inNamespace("crater-jobs")
                        .withName("c-" + deleted)
                        .delete();
                awaitCompleted(k8s, "c-" + finishes, 60);
            }

            try (PackagedApp second = new PackagedApp(home, "server", env, "Console: http://").start()) {
                token = second.login("rc.user", PW);
                awaitState(second, token, finishes, "Succeeded", 60);
                awaitState(second, token, deleted, "Failed", 60);
                HttpResponse<String> detail = second.call("GET", "/api/v1/jobs/" + deleted, token, null, null);
                assertThat(detail.body()).contains("\"stateReason\":\"VolcanoJobVanished\"");
                assertThat(state(second, token, keepsRunning)).isEqualTo("Running");
                // The finished job's log and exit were archived after the restart, and answer from there.
                String done = second.call("GET", "/api/v1/jobs/" + finishes, token, null, null)
                        .body();
                assertThat(done).contains("\"to\":\"Succeeded\"").contains("\"exitCode\":0");
                HttpResponse<String> log = second.call("GET", "/api/v1/jobs/" + finishes + "/logs", token, null, null);
                assertThat(log.statusCode()).isEqualTo(200);
                assertThat(log.body()).contains("container main started");
            }
        }
    }

    static String submit(PackagedApp app, String token, String name, String duration) throws Exception {
        String env = duration == null ? "{}" : "{\"SIM_DURATION\":\"" + duration + "\"}";
        HttpResponse<String> r = app.call(
                "POST",
                "/api/v1/jobs",
                token,
                null,
                "{\"name\":\"" + name + "\",\"kind\":\"custom\",\"image\":\"busybox\",\"command\":[\"sleep\",\"600\"],"
                        + "\"env\":" + env + ",\"resources\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}");
        expect(r, 201);
        Matcher m = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"").matcher(r.body());
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    static String state(PackagedApp app, String token, String id) throws Exception {
        String body = app.call("GET", "/api/v1/jobs/" + id, token, null, null).body();
        Matcher m = Pattern.compile("\"state\"\\s*:\\s*\"([A-Za-z]+)\"").matcher(body);
        return m.find() ? m.group(1) : body;
    }

    static void awaitState(PackagedApp app, String token, String id, String wanted, int seconds) throws Exception {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        String seen = null;
        while (System.currentTimeMillis() < deadline) {
            seen = state(app, token, id);
            if (wanted.equals(seen)) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError(id + " is " + seen + ", expected " + wanted + " within " + seconds + " s");
    }

    /** Waits until the cluster says the Volcano Job {@code name} has completed. */
    static void awaitCompleted(KubernetesClient k8s, String name, int seconds) throws InterruptedException {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        String phase = null;
        while (System.currentTimeMillis() < deadline) {
            VolcanoJob job = k8s.resources(VolcanoJob.class)
                    .inNamespace("crater-jobs")
                    .withName(name)
                    .get();
            phase = job == null || job.getStatus() == null || job.getStatus().state == null
                    ? null
                    : job.getStatus().state.phase;
            if ("Completed".equals(phase)) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError(name + " is " + phase + ", expected Completed within " + seconds + " s");
    }

    static void expect(HttpResponse<String> r, int status) {
        assertThat(r.statusCode()).as(r.uri() + ": " + r.body()).isEqualTo(status);
    }
}
