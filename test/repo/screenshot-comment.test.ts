// scripts/screenshot-comment.mjs's Chromium stderr: its D-Bus lines, printed by the dozen on a
// machine without D-Bus, are left out; every other line, a real error among them, is kept.

import { describe, expect, it } from 'vitest';
import { withoutDbusNoise } from '../../scripts/screenshot-comment.mjs';

describe('scripts/screenshot-comment.mjs, withoutDbusNoise', () => {
  it("leaves out Chromium's D-Bus lines and keeps the others, in order", () => {
    // As Chromium 14x on Debian prints them in a container with no D-Bus.
    const stderr = [
      '/usr/bin/chromium: 9: [: 25276194816: unexpected operator',
      '[31136:31164:1207/024113.603174:ERROR:dbus/bus.cc:405] Failed to connect to the bus: Failed to connect to socket /run/dbus/system_bus_socket: No such file or directory',
      '[31136:31136:1207/024114.448298:ERROR:dbus/object_proxy.cc:572] Failed to call method: org.freedesktop.DBus.NameHasOwner: object_path= /org/freedesktop/DBus: unknown error type: ',
      '[31136:31136:1207/024114.500000:ERROR:headless_shell.cc:310] Failed to write file /nowhere/shot.png: No such file or directory (2)',
      '[31136:31164:1207/024114.460797:ERROR:dbus/bus.cc:405] Failed to connect to the bus: Could not parse server address: Unknown address type',
      '',
    ].join('\n');
    expect(withoutDbusNoise(stderr)).toBe(
      ['/usr/bin/chromium: 9: [: 25276194816: unexpected operator', '[31136:31136:1207/024114.500000:ERROR:headless_shell.cc:310] Failed to write file /nowhere/shot.png: No such file or directory (2)', ''].join('\n'),
    );
    // Nothing but D-Bus lines: nothing at all.
    expect(withoutDbusNoise('[1:2:1207/024113.603174:ERROR:dbus/bus.cc:405] Failed to connect to the bus\n')).toBe('');
    // A line that only mentions dbus is not one of them.
    expect(withoutDbusNoise('error: could not start dbus/bus.cc tests\n')).toBe('error: could not start dbus/bus.cc tests\n');
  });
});
