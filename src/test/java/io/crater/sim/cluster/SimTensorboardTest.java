package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulated TensorBoard's folders and runs: found through the pod's mounts on the claim's host folder. */
class SimTensorboardTest {

    @TempDir
    Path claim;

    static JsonNode pod(String spec, String subPath0, String subPath1) throws Exception {
        return new ObjectMapper()
                .readTree(("{\"spec\":{\"volumes\":[{\"name\":\"crater-spaces\",\"persistentVolumeClaim\":"
                                + "{\"claimName\":\"crater-shared\"}},{\"name\":\"scratch\",\"emptyDir\":{}}],"
                                + "\"containers\":[{\"command\":[\"tensorboard\"],\"args\":[\"--logdir_spec\",\"%s\","
                                + "\"--bind_all\"],\"volumeMounts\":[{\"name\":\"crater-spaces\",\"mountPath\":\"/logs/0\","
                                + "\"subPath\":\"%s\",\"readOnly\":true},{\"name\":\"crater-spaces\",\"mountPath\":"
                                + "\"/logs/1\",\"subPath\":\"%s\",\"readOnly\":true},{\"name\":\"scratch\",\"mountPath\":"
                                + "\"/logs/2\"}]}]}}")
                        .formatted(spec, subPath0, subPath1));
    }

    void event(String dir) throws Exception {
        Files.createDirectories(claim.resolve(dir));
        Files.writeString(claim.resolve(dir).resolve("events.out.tfevents.1.host"), "x");
    }

    @Test
    void runsAreTheFoldersHoldingEventFilesNamedByTheirEntry() throws Exception {
        event("users/ada/runs/exp1/run_a");
        event("users/ada/runs/exp1/run_b/deeper");
        Files.writeString(claim.resolve("users/ada/runs/exp1/notes.txt"), "not a run");
        event("users/ada/train");
        var dirs = SimTensorboard.logDirs(
                pod("exp1:/logs/0,train:/logs/1", "users/ada/runs/exp1", "users/ada/train"),
                Map.of("crater-shared", claim)::get);
        assertThat(dirs).extracting(SimTensorboard.LogDir::name).containsExactly("exp1", "train");
        assertThat(SimTensorboard.runs(dirs)).containsExactly("exp1/run_a", "exp1/run_b/deeper", "train");
    }

    @Test
    void nothingOutsideTheClaimNorBehindALinkIsRead() throws Exception {
        event("users/ada/runs");
        Path outside = Files.createTempDirectory("outside");
        Files.writeString(outside.resolve("events.out.tfevents.9.host"), "x");
        Files.createSymbolicLink(claim.resolve("users/ada/runs/link"), outside);
        var dirs = SimTensorboard.logDirs(
                pod("a:/logs/0,b:/logs/1,c:/logs/2", "users/ada/runs", "../" + outside.getFileName()),
                Map.of("crater-shared", claim)::get);
        assertThat(dirs.get(1).host()).as("a sub-path going up").isNull();
        assertThat(dirs.get(2).host()).as("a volume that is no claim").isNull();
        assertThat(SimTensorboard.runs(dirs)).containsExactly("a");
    }
}
