#include "tower.h"

#include <Arduino.h>

#include "board_pins.h"
#include "firmata.h"
#include "pins.h"
#include "servo_timer.h"
#include "tower_protocol.h"

namespace tower {

// Status LED patterns: half-periods of the blink (0 = steady on).
static const uint16_t BLINK_BUSY_MS = 125;
static const uint16_t BLINK_FAULT_MS = 500;

enum Phase : uint8_t { IDLE, HOLDING, RETURNING };

// A debounced active-low input: `active` changes once the raw reading has
// stayed the same for `settleMs`.
struct Debounced {
  uint8_t pin;
  uint8_t settleMs;
  bool raw;
  bool active;
  uint32_t rawSinceMs;

  // Returns true when `active` changed.
  bool update(uint32_t nowMs) {
    bool reading = digitalRead(pin) == LOW;
    if (reading != raw) {
      raw = reading;
      rawSinceMs = nowMs;
    }
    if (raw != active && nowMs - rawSinceMs >= settleMs) {
      active = raw;
      return true;
    }
    return false;
  }
  void start(uint32_t nowMs) {
    raw = active = digitalRead(pin) == LOW;
    rawSinceMs = nowMs;
  }
};

static Print *out;
static uint8_t state;
static uint8_t lastFault;
static Phase phase;
static uint16_t cycleId;
static uint16_t restAngle;
static uint16_t holdMs;
static uint16_t returnTimeoutMs;
static uint32_t phaseStartMs;
static bool servoUsed;  // a roll has set the rest angle, so "return to rest" means something
static uint16_t silentTimeoutMs;
static uint8_t dimLevel;
static bool heardHost;  // the silent-host timer runs once the host has said something
static bool silent;     // tripped, and no byte since
static uint32_t lastHostMs;
static Debounced button;
static Debounced tray;

static const uint8_t TRAY_CHANNEL = 0;  // PIN_TRAY_SERVO is checked to be 9 or 10 in servo_timer.cpp

static void report(uint8_t sub, const uint16_t *fields, uint8_t count) {
  firmata::startSysex(*out, TOWER_SYSEX);
  out->write(sub);
  for (uint8_t i = 0; i < count; i++) firmata::send14(*out, fields[i]);
  firmata::endSysex(*out);
}

static void reportStatus() {
  uint16_t flags = 0;
  if (silent) flags |= TOWER_FLAG_HOST_SILENT;
  if (tray.active) flags |= TOWER_FLAG_TRAY_IN_PLACE;
  if (button.active) flags |= TOWER_FLAG_BUTTON_DOWN;
  if (servo_timer::running(servo_timer::channelForPin(PIN_TRAY_SERVO))) flags |= TOWER_FLAG_SERVO_ON;
  uint16_t fields[] = {state, lastFault, board::state(PIN_LIGHT), flags, cycleId};
  report(TOWER_REPORT_STATUS, fields, 5);
}

static void reject(uint8_t sub, uint8_t reason) {
  uint16_t fields[] = {sub, reason};
  report(TOWER_REPORT_REJECTED, fields, 2);
}

static void moveTray(uint16_t angle) { board::analogWrite(PIN_TRAY_SERVO, angle); }

static void setLight(uint8_t level) { board::analogWrite(PIN_LIGHT, level); }

static void fault(uint8_t code) {
  // Stop pushing: a servo stalled against a jammed tray burns out. It stays limp
  // until the host clears the fault and starts another cycle (or moves it itself).
  servo_timer::stop(servo_timer::channelForPin(PIN_TRAY_SERVO));
  phase = IDLE;
  state = TOWER_STATE_FAULT;
  lastFault = code;
  uint16_t fields[] = {code, cycleId};
  report(TOWER_REPORT_FAULT, fields, 2);
}

static void startRoll(const uint16_t *f, uint32_t nowMs) {
  cycleId = f[0];
  restAngle = f[2];
  holdMs = f[3];
  returnTimeoutMs = f[4];
  servoUsed = true;
  state = TOWER_STATE_BUSY;
  phase = HOLDING;
  phaseStartMs = nowMs;
  moveTray(f[1]);
}

static void statusLed(uint32_t nowMs) {
  uint16_t half = state == TOWER_STATE_BUSY ? BLINK_BUSY_MS : state == TOWER_STATE_FAULT ? BLINK_FAULT_MS : 0;
  bool on = half == 0 || (nowMs / half) % 2 == 0;
  digitalWrite(PIN_STATUS_LED, on ? HIGH : LOW);
}

void reset(uint32_t nowMs) {
  state = TOWER_STATE_READY;
  lastFault = TOWER_FAULT_NONE;
  if (phase != IDLE || servoUsed) moveTray(restAngle);
  phase = IDLE;
  cycleId = 0;
  silentTimeoutMs = TOWER_DEFAULT_SILENT_MS;
  dimLevel = TOWER_DEFAULT_DIM_LEVEL;
  heardHost = false;
  silent = false;
  lastHostMs = nowMs;
  setLight(0);
}

void begin(Print &port, uint32_t nowMs) {
  out = &port;
  pinMode(PIN_STATUS_LED, OUTPUT);
  button = Debounced{PIN_BUTTON, TOWER_BUTTON_DEBOUNCE_MS, false, false, 0};
  tray = Debounced{PIN_TRAY_SENSOR, TOWER_TRAY_SETTLE_MS, false, false, 0};
  button.start(nowMs);
  tray.start(nowMs);
  phase = IDLE;
  servoUsed = false;
  restAngle = 0;
  reset(nowMs);
}

void hostByte(uint32_t nowMs) {
  heardHost = true;
  silent = false;
  lastHostMs = nowMs;
}

bool pinLocked(uint8_t pin) { return phase != IDLE && pin == PIN_TRAY_SERVO; }

// Expected number of 14-bit fields of each host sub-command, or -1 if unknown.
static int8_t fieldCount(uint8_t sub) {
  switch (sub) {
    case TOWER_CMD_ROLL: return 5;
    case TOWER_CMD_SET_LIGHT: return 1;
    case TOWER_CMD_QUERY_STATUS: return 0;
    case TOWER_CMD_CONFIGURE: return 2;
    case TOWER_CMD_CLEAR_FAULT: return 0;
    default: return -1;
  }
}

void handleSysex(const uint8_t *data, uint8_t length, uint32_t nowMs) {
  if (length == 0) return;
  uint8_t sub = data[0];
  int8_t count = fieldCount(sub);
  if (count < 0) return reject(sub, TOWER_REJECT_UNKNOWN);
  if (length != 1 + 2 * count) return reject(sub, TOWER_REJECT_BAD_LENGTH);
  uint16_t f[5];
  for (int8_t i = 0; i < count; i++) f[i] = firmata::decode14(data + 1 + 2 * i);

  switch (sub) {
    case TOWER_CMD_ROLL:
      if (state == TOWER_STATE_BUSY) return reject(sub, TOWER_REJECT_BUSY);
      if (state == TOWER_STATE_FAULT) return reject(sub, TOWER_REJECT_FAULT);
      if (f[1] > TOWER_MAX_ANGLE || f[2] > TOWER_MAX_ANGLE) return reject(sub, TOWER_REJECT_BAD_VALUE);
      return startRoll(f, nowMs);
    case TOWER_CMD_SET_LIGHT:
      if (f[0] > TOWER_MAX_LEVEL) return reject(sub, TOWER_REJECT_BAD_VALUE);
      return setLight(f[0]);
    case TOWER_CMD_QUERY_STATUS:
      return reportStatus();
    case TOWER_CMD_CONFIGURE:
      if (f[1] > TOWER_MAX_LEVEL) return reject(sub, TOWER_REJECT_BAD_VALUE);
      silentTimeoutMs = f[0];
      dimLevel = f[1];
      return;
    case TOWER_CMD_CLEAR_FAULT:
      if (state == TOWER_STATE_FAULT) state = TOWER_STATE_READY;
      lastFault = TOWER_FAULT_NONE;
      return reportStatus();
  }
}

static void runCycle(uint32_t nowMs) {
  uint32_t elapsed = nowMs - phaseStartMs;
  if (phase == HOLDING && elapsed >= holdMs) {
    // The tray was tipped for holdMs: if the sensor still sees it home, it never moved.
    if (tray.active) return fault(TOWER_FAULT_TRAY_STUCK);
    moveTray(restAngle);
    phase = RETURNING;
    phaseStartMs = nowMs;
  } else if (phase == RETURNING) {
    if (tray.active) {
      phase = IDLE;
      state = TOWER_STATE_READY;
      uint16_t fields[] = {cycleId, uint16_t(elapsed)};
      report(TOWER_REPORT_CYCLE_DONE, fields, 2);
    } else if (elapsed >= returnTimeoutMs) {
      fault(TOWER_FAULT_JAM);
    }
  }
}

static void checkHost(uint32_t nowMs) {
  if (!heardHost || silent || silentTimeoutMs == 0 || nowMs - lastHostMs < silentTimeoutMs) return;
  silent = true;
  if (phase != IDLE) {  // abandon the cycle; the host learns it from this report, not CYCLE_DONE
    phase = IDLE;
    state = TOWER_STATE_READY;
  }
  if (servoUsed && state != TOWER_STATE_FAULT) moveTray(restAngle);
  if (board::state(PIN_LIGHT) > dimLevel) setLight(dimLevel);
  uint16_t fields[] = {silentTimeoutMs};
  report(TOWER_REPORT_HOST_SILENT, fields, 1);
}

void poll(uint32_t nowMs) {
  tray.update(nowMs);
  if (button.update(nowMs) && button.active) report(TOWER_REPORT_BUTTON, nullptr, 0);
  if (phase != IDLE) runCycle(nowMs);
  checkHost(nowMs);
  statusLed(nowMs);
}

}  // namespace tower
