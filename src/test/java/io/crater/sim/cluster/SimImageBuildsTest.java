package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the simulated builder reads of a build pod: its command line and its registry login. */
class SimImageBuildsTest {

    @Test
    void buildKitsCommandLine() {
        SimImageBuilds.Plan p = SimImageBuilds.plan(
                List.of(
                        "buildctl-daemonless.sh",
                        "build",
                        "--frontend",
                        "dockerfile.v0",
                        "--local",
                        "context=/crater/build/context",
                        "--local",
                        "dockerfile=/crater/build/dockerfile",
                        "--output",
                        "type=image,name=127.0.0.1:5000/a/b:1,push=true,registry.insecure=true"),
                Map.of("DOCKER_CONFIG", "/crater/build/docker"));
        assertThat(p)
                .isEqualTo(new SimImageBuilds.Plan(
                        "127.0.0.1:5000/a/b:1", true, "/crater/build/dockerfile", "/crater/build/docker"));
    }

    @Test
    void kanikosCommandLine() {
        SimImageBuilds.Plan p = SimImageBuilds.plan(
                List.of(
                        "/kaniko/executor",
                        "--dockerfile=/crater/build/dockerfile/Dockerfile",
                        "--context=dir:///crater/build/context",
                        "--destination=r.example/a/b:1"),
                Map.of());
        assertThat(p)
                .isEqualTo(
                        new SimImageBuilds.Plan("r.example/a/b:1", false, "/crater/build/dockerfile", "/root/.docker"));
    }

    @Test
    void aCommandLineWithoutADestinationBuildsNothing() {
        assertThat(SimImageBuilds.plan(List.of("sleep", "10"), Map.of())).isNull();
        assertThat(SimImageBuilds.plan(List.of("--destination=r/a:1"), Map.of()))
                .isNull();
    }

    @Test
    void theLoginComesFromConfigJson() {
        String auth = Base64.getEncoder().encodeToString("bob:pw".getBytes(StandardCharsets.UTF_8));
        String config = "{\"auths\":{\"127.0.0.1:5000\":{\"auth\":\"" + auth + "\"},"
                + "\"https://index.docker.io/v1/\":{\"auth\":\"hub\"}}}";
        assertThat(SimImageBuilds.basic(config, "127.0.0.1:5000")).isEqualTo(auth);
        assertThat(SimImageBuilds.basic(config, "docker.io")).isEqualTo("hub");
        assertThat(SimImageBuilds.basic(config, "ghcr.io")).isNull();
        assertThat(SimImageBuilds.basic(null, "ghcr.io")).isNull();
        assertThat(SimImageBuilds.basic("not json", "ghcr.io")).isNull();
    }

    @Test
    void theLayerIsATarOfTheDockerfile() {
        byte[] tar = OciPush.tar("Dockerfile", "FROM a\n".getBytes(StandardCharsets.UTF_8));
        assertThat(tar.length).isEqualTo(512 + 512 + 1024);
        assertThat(new String(tar, 0, 10, StandardCharsets.US_ASCII)).isEqualTo("Dockerfile");
        assertThat(new String(tar, 257, 5, StandardCharsets.US_ASCII)).isEqualTo("ustar");
        assertThat(new String(tar, 512, 7, StandardCharsets.UTF_8)).isEqualTo("FROM a\n");
        long sum = 0;
        for (int i = 0; i < 512; i++) {
            sum += (i >= 148 && i < 156) ? ' ' : tar[i] & 0xff;
        }
        assertThat(Long.parseLong(new String(tar, 148, 6, StandardCharsets.US_ASCII), 8))
                .isEqualTo(sum);
    }
}
