package io.conduit.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Which addresses a tool may reach: literals only, so no DNS is asked. */
class ReachableAddressesTest {

    private final ReachableAddresses strict = ReachableAddresses.publicAnd(List.of());

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
            "169.254.169.254", "100.64.0.1", "100.127.255.255", "0.0.0.0", "0.1.2.3", "224.0.0.1", "192.0.0.10", "198.18.0.1",
            "::1", "::", "fe80::1", "fd00:ec2::254", "fc00::5", "ff02::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254"})
    void nonPublicAddressesAreRefused(String address) {
        assertThatThrownBy(() -> strict.check(address)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a non-public address");
    }

    @ParameterizedTest
    @ValueSource(strings = {"8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.1", "172.32.0.1", "192.169.0.1", "2606:4700::1111"})
    void publicAddressesAreReached(String address) throws UnknownHostException {
        assertThat(strict.check(address)).containsExactly(InetAddress.getByName(address));
    }

    @Test
    void listedAddressesAndBlocksAreReached() throws UnknownHostException {
        ReachableAddresses listed = ReachableAddresses.publicAnd(List.of("10.20.0.0/16", "127.0.0.1", "fd00::/8"));
        assertThat(listed.check("10.20.3.4")).hasSize(1);
        assertThat(listed.check("127.0.0.1")).hasSize(1);
        assertThat(listed.check("fd12::1")).hasSize(1);
        assertThatThrownBy(() -> listed.check("10.21.0.1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> listed.check("127.0.0.2")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> listed.check("169.254.169.254")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMalformedEntryIsAStartUpError() {
        for (String bad : new String[]{"intranet.example", "10.0.0.0/33", "10.0.0.0/x", "::1/129"}) {
            assertThatThrownBy(() -> ReachableAddresses.publicAnd(List.of(bad))).isInstanceOf(IllegalStateException.class)
                    .hasMessage("conduit.tools.private-addresses: " + bad + " is not an address or a CIDR block");
        }
    }
}
