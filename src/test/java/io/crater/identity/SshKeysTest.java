package io.crater.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SshKeysTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "hello",
                "ssh-ed25519 not-base64!",
                "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ",
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA",
                "ecdsa-sha2-nistp256 AAAA you@host"
            })
    void aLineThatIsNoPublicKeyGetsOneFriendlyMessage(String line) {
        ApiException e = catchThrowableOfType(ApiException.class, () -> SshKeys.parse(line));
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.code()).isEqualTo("InvalidSshKey");
        assertThat(e.getMessage())
                .isEqualTo("not an OpenSSH public key: expected a line like `ssh-ed25519 AAAA… comment`"
                        + " (the contents of ~/.ssh/id_ed25519.pub)");
        assertThat(e.errors()).extracting(Problem.FieldError::field).containsExactly("publicKey");
    }

    @Test
    void aPrivateKeyIsRefusedWithItsOwnWarning() {
        ApiException e =
                catchThrowableOfType(ApiException.class, () -> SshKeys.parse("-----BEGIN OPENSSH PRIVATE KEY-----"));
        assertThat(e.getMessage()).contains("never a private key");
    }

    @Test
    void aRealKeyIsParsedWithItsFingerprint() throws Exception {
        byte[] x509 = KeyPairGenerator.getInstance("Ed25519")
                .generateKeyPair()
                .getPublic()
                .getEncoded();
        byte[] raw = Arrays.copyOfRange(x509, x509.length - 32, x509.length);
        byte[] type = "ssh-ed25519".getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(4 + type.length + 4 + raw.length);
        b.putInt(type.length).put(type).putInt(raw.length).put(raw);
        String line = "ssh-ed25519 " + Base64.getEncoder().encodeToString(b.array()) + " me@laptop";
        SshKeys.Parsed parsed = SshKeys.parse(line);
        assertThat(parsed.type()).isEqualTo("ssh-ed25519");
        assertThat(parsed.fingerprint()).startsWith("SHA256:");
    }
}
