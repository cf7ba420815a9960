// The tower sysex: codes shared with the host (src/hardware/tower-protocol.ts).
// tests/firmware/protocol.test.ts parses every `#define NAME value` here and
// checks that the TypeScript constants match, so keep that form.
//
// Message: F0 TOWER_SYSEX <sub-command> <field>* F7
// Every field is one unsigned 14-bit value sent as two 7-bit bytes, LSB first.
// Host -> board sub-commands are 0x01-0x3F; board -> host reports are 0x40-0x7F.
#ifndef DICE_TOWER_PROTOCOL_H
#define DICE_TOWER_PROTOCOL_H

// Firmata reserves sysex ids 0x01-0x0F for user-defined commands.
#define TOWER_SYSEX                 0x0D

#define TOWER_FIRMWARE_NAME         "DiceTower"
#define TOWER_FIRMWARE_MAJOR        1
#define TOWER_FIRMWARE_MINOR        0

// Host -> board.                                  fields
#define TOWER_CMD_ROLL              0x01  // cycleId, tipAngle, restAngle, holdMs, returnTimeoutMs
#define TOWER_CMD_SET_LIGHT         0x02  // level (0-255)
#define TOWER_CMD_QUERY_STATUS      0x03  // (none) -> TOWER_REPORT_STATUS
#define TOWER_CMD_CONFIGURE         0x04  // silentTimeoutMs (0 = off), dimLevel (0-255)
#define TOWER_CMD_CLEAR_FAULT       0x05  // (none) -> TOWER_REPORT_STATUS

// Board -> host.
#define TOWER_REPORT_STATUS         0x40  // state, lastFault, lightLevel, flags, lastCycleId
#define TOWER_REPORT_CYCLE_DONE     0x41  // cycleId, returnMs (return command to tray in place)
#define TOWER_REPORT_FAULT          0x42  // faultCode, cycleId
#define TOWER_REPORT_BUTTON         0x43  // (none): one report per debounced press
#define TOWER_REPORT_HOST_SILENT    0x44  // silentTimeoutMs that elapsed
#define TOWER_REPORT_REJECTED       0x45  // sub-command, reason

// States (TOWER_REPORT_STATUS.state).
#define TOWER_STATE_READY           0
#define TOWER_STATE_BUSY            1
#define TOWER_STATE_FAULT           2

// Fault codes (TOWER_REPORT_STATUS.lastFault, TOWER_REPORT_FAULT.faultCode).
#define TOWER_FAULT_NONE            0
#define TOWER_FAULT_JAM             1  // tray not back in place within returnTimeoutMs
#define TOWER_FAULT_TRAY_STUCK      2  // tray sensor still "in place" after the hold: the tray never tipped

// Reasons (TOWER_REPORT_REJECTED.reason).
#define TOWER_REJECT_BUSY           1  // a roll cycle is running
#define TOWER_REJECT_FAULT          2  // in fault: send TOWER_CMD_CLEAR_FAULT first
#define TOWER_REJECT_BAD_LENGTH     3  // wrong number of payload bytes
#define TOWER_REJECT_BAD_VALUE      4  // a field out of range
#define TOWER_REJECT_UNKNOWN        5  // unknown sub-command

// Bits of TOWER_REPORT_STATUS.flags.
#define TOWER_FLAG_HOST_SILENT      0x01  // the silent-host safety has tripped and no byte came since
#define TOWER_FLAG_TRAY_IN_PLACE    0x02  // debounced tray sensor
#define TOWER_FLAG_BUTTON_DOWN      0x04  // debounced button
#define TOWER_FLAG_SERVO_ON         0x08  // the tray servo is receiving pulses

// Limits and defaults.
#define TOWER_MAX_ANGLE             180
#define TOWER_MAX_LEVEL             255
#define TOWER_DEFAULT_SILENT_MS     5000
#define TOWER_DEFAULT_DIM_LEVEL     16   // of 255: a glow that says "powered, host gone"
#define TOWER_BUTTON_DEBOUNCE_MS    30
#define TOWER_TRAY_SETTLE_MS        10   // tray sensor must read "in place" this long to count

#endif
