package io.crater.job;

import java.util.Arrays;
import java.util.Optional;

/** What a job is; decides its tasks, ports, probes and default run time. */
public enum JobKind {
    /** JupyterLab in the browser, on the job's app origin. */
    JUPYTER("jupyter", true),
    /** VS Code in the browser (code-server), on the job's app origin. */
    WEBIDE("webide", true),
    /** A single-node batch job: image, command, working directory, environment. */
    CUSTOM("custom", false),
    /** Multi-node PyTorch DDP: a master and workers started by torchrun with c10d rendezvous. */
    PYTORCH("pytorch", false),
    /** A long-running model server (e.g. vLLM) behind a Service, until stopped. */
    INFERENCE("inference", false),
    /** A TensorBoard panel's server (CPU only), made by {@code /api/v1/tensorboards}, on the job's app origin. */
    TENSORBOARD("tensorboard", true),
    /**
     * A transfer from a model hub into a file space (docs/assets.md, downloads): one CPU pod running the hub's own
     * client; started by the downloads API only.
     */
    DOWNLOAD("download", false),
    /**
     * An image build (docs/assets.md, "Builds"): the builder pushes the image a Dockerfile describes. Started by the
     * image catalogue, never submitted as a job of its own.
     */
    IMAGEBUILD("imagebuild", false);

    private final String id;
    private final boolean interactive;

    JobKind(String id, boolean interactive) {
        this.id = id;
        this.interactive = interactive;
    }

    public String id() {
        return id;
    }

    public boolean interactive() {
        return interactive;
    }

    public static Optional<JobKind> of(String id) {
        return Arrays.stream(values()).filter(k -> k.id.equals(id)).findFirst();
    }
}
