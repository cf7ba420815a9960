#include "board_pins.h"

#include <Arduino.h>

#include "firmata.h"
#include "pins.h"
#include "servo_timer.h"

namespace board {

using namespace firmata;

static uint8_t modes[TOTAL_PINS];
static uint16_t states[TOTAL_PINS];
static uint8_t reportedPorts;      // bit p: report port p
static uint8_t lastPortValue[TOTAL_PORTS];
static uint8_t reportedChannels;   // bit c: report analog channel c
static uint16_t samplingMs;
static uint32_t lastSampleMs;

static_assert(PIN_LIGHT == 3 || PIN_LIGHT == 5 || PIN_LIGHT == 6 || PIN_LIGHT == 11,
              "the light needs a PWM pin outside Timer1 (3, 5, 6 or 11)");
static_assert(TOTAL_PINS <= 8 * TOTAL_PORTS, "ports must cover every pin");

static inline uint16_t bitOf(uint8_t mode) { return uint16_t(1) << mode; }
static inline bool isAnalogPin(uint8_t pin) { return pin >= FIRST_ANALOG_PIN && pin < TOTAL_PINS; }

uint16_t modeMask(uint8_t pin) {
  switch (pin) {
    case PIN_SERIAL_RX:
    case PIN_SERIAL_TX:
    case PIN_STATUS_LED:
      return 0;
    case PIN_BUTTON:
    case PIN_TRAY_SENSOR:
      return bitOf(MODE_PULLUP);
    case PIN_LIGHT:
      return bitOf(MODE_PWM);
    case PIN_TRAY_SERVO:
      return bitOf(MODE_SERVO);
    default:
      break;
  }
  if (pin >= TOTAL_PINS) return 0;
  uint16_t mask = bitOf(MODE_INPUT) | bitOf(MODE_OUTPUT) | bitOf(MODE_PULLUP);
  if (servo_timer::channelForPin(pin) != servo_timer::NO_CHANNEL) {
    mask |= bitOf(MODE_SERVO);
  } else if (digitalPinHasPWM(pin)) {
    mask |= bitOf(MODE_PWM);
  }
  if (isAnalogPin(pin)) mask |= bitOf(MODE_ANALOG);
  return mask;
}

static uint8_t resolutionOf(uint8_t mode) {
  switch (mode) {
    case MODE_ANALOG: return 10;
    case MODE_PWM: return 8;
    case MODE_SERVO: return 14;
    default: return 1;
  }
}

uint8_t mode(uint8_t pin) { return pin < TOTAL_PINS ? modes[pin] : NO_MODE; }
uint16_t state(uint8_t pin) { return pin < TOTAL_PINS ? states[pin] : 0; }

static void leaveMode(uint8_t pin) {
  uint8_t channel = servo_timer::channelForPin(pin);
  if (modes[pin] == MODE_SERVO && channel != servo_timer::NO_CHANNEL) servo_timer::stop(channel);
  if (modes[pin] == MODE_PWM) digitalWrite(pin, LOW);  // also turns the timer output off
}

bool setMode(uint8_t pin, uint8_t newMode) {
  if (newMode >= MODE_COUNT || !(modeMask(pin) & bitOf(newMode))) return false;
  if (modes[pin] == newMode) return true;  // keep a running servo or PWM as it is
  leaveMode(pin);
  modes[pin] = newMode;
  states[pin] = 0;
  switch (newMode) {
    case MODE_INPUT:
    case MODE_ANALOG:
      pinMode(pin, INPUT);
      break;
    case MODE_PULLUP:
      pinMode(pin, INPUT_PULLUP);
      states[pin] = 1;
      break;
    case MODE_OUTPUT:
      digitalWrite(pin, LOW);
      pinMode(pin, OUTPUT);
      break;
    case MODE_PWM:
      pinMode(pin, OUTPUT);
      ::analogWrite(pin, 0);
      break;
    case MODE_SERVO:
      // No pulse until the first write, so that setting the mode never moves a servo.
      servo_timer::stop(servo_timer::channelForPin(pin));
      break;
  }
  return true;
}

bool servoConfig(uint8_t pin, uint16_t minUs, uint16_t maxUs) {
  uint8_t channel = servo_timer::channelForPin(pin);
  if (channel == servo_timer::NO_CHANNEL || !setMode(pin, MODE_SERVO)) return false;
  servo_timer::setRange(channel, minUs, maxUs);
  return true;
}

bool analogWrite(uint8_t pin, uint32_t value) {
  if (pin >= TOTAL_PINS) return false;
  if (value > 0x3FFF) value = 0x3FFF;
  if (modes[pin] == MODE_PWM) {
    if (value > 255) value = 255;
    ::analogWrite(pin, value);
  } else if (modes[pin] == MODE_SERVO) {
    servo_timer::write(servo_timer::channelForPin(pin), value);
  } else {
    return false;
  }
  states[pin] = value;
  return true;
}

void writePin(uint8_t pin, uint8_t value) {
  if (pin >= TOTAL_PINS || modes[pin] != MODE_OUTPUT) return;
  states[pin] = value ? 1 : 0;
  digitalWrite(pin, value ? HIGH : LOW);
}

void writePort(uint8_t port, uint8_t value) {
  for (uint8_t i = 0; i < 8; i++) {
    uint8_t pin = port * 8 + i;
    if (pin < TOTAL_PINS && modes[pin] == MODE_OUTPUT) writePin(pin, (value >> i) & 1);
  }
}

// Bits of the port's pins that are digital inputs, as read now.
static uint8_t readPort(uint8_t port) {
  uint8_t value = 0;
  for (uint8_t i = 0; i < 8; i++) {
    uint8_t pin = port * 8 + i;
    if (pin >= TOTAL_PINS) break;
    if ((modes[pin] == MODE_INPUT || modes[pin] == MODE_PULLUP) && digitalRead(pin)) value |= 1 << i;
  }
  return value;
}

void reportDigital(Print &out, uint8_t port, bool enable) {
  if (port >= TOTAL_PORTS) return;
  if (!enable) {
    reportedPorts &= ~(1 << port);
    return;
  }
  reportedPorts |= 1 << port;
  lastPortValue[port] = readPort(port);
  sendDigitalPort(out, port, lastPortValue[port]);
}

static void sendChannel(Print &out, uint8_t channel) {
  sendAnalog(out, channel, analogRead(FIRST_ANALOG_PIN + channel));
}

void reportAnalog(Print &out, uint8_t channel, bool enable) {
  if (channel >= TOTAL_ANALOG_PINS) return;
  if (!enable) {
    reportedChannels &= ~(1 << channel);
    return;
  }
  reportedChannels |= 1 << channel;
  sendChannel(out, channel);
}

void setSamplingInterval(uint16_t ms) { samplingMs = ms < 1 ? 1 : ms; }

void poll(Print &out, uint32_t nowMs) {
  for (uint8_t port = 0; port < TOTAL_PORTS; port++) {
    if (!(reportedPorts & (1 << port))) continue;
    uint8_t value = readPort(port);
    if (value != lastPortValue[port]) {
      lastPortValue[port] = value;
      sendDigitalPort(out, port, value);
    }
  }
  if (nowMs - lastSampleMs < samplingMs) return;
  lastSampleMs = nowMs;
  for (uint8_t channel = 0; channel < TOTAL_ANALOG_PINS; channel++) {
    if ((reportedChannels & (1 << channel)) && modes[FIRST_ANALOG_PIN + channel] == MODE_ANALOG) {
      sendChannel(out, channel);
    }
  }
}

void sendCapabilities(Print &out) {
  startSysex(out, CAPABILITY_RESPONSE);
  for (uint8_t pin = 0; pin < TOTAL_PINS; pin++) {
    uint16_t mask = modeMask(pin);
    for (uint8_t m = 0; m < MODE_COUNT; m++) {
      if (mask & bitOf(m)) {
        out.write(m);
        out.write(resolutionOf(m));
      }
    }
    out.write(NO_MODE);
  }
  endSysex(out);
}

void sendAnalogMapping(Print &out) {
  startSysex(out, ANALOG_MAPPING_RESPONSE);
  for (uint8_t pin = 0; pin < TOTAL_PINS; pin++) {
    out.write(isAnalogPin(pin) ? pin - FIRST_ANALOG_PIN : NO_MODE);
  }
  endSysex(out);
}

void sendPinState(Print &out, uint8_t pin) {
  if (pin >= TOTAL_PINS) return;
  startSysex(out, PIN_STATE_RESPONSE);
  out.write(pin);
  out.write(modes[pin]);
  uint16_t value = states[pin];
  do {  // as many 7-bit bytes as the value needs, at least one
    out.write(value & 0x7F);
    value >>= 7;
  } while (value);
  endSysex(out);
}

void reset() {
  reportedPorts = 0;
  reportedChannels = 0;
  samplingMs = DEFAULT_SAMPLING_MS;
  lastSampleMs = 0;
  for (uint8_t pin = 0; pin < TOTAL_PINS; pin++) {
    uint16_t mask = modeMask(pin);
    if (modes[pin] != NO_MODE && mask) leaveMode(pin);
    modes[pin] = NO_MODE;  // forces setMode() below to apply the mode
    states[pin] = 0;
    if (!mask) continue;
    uint8_t initial = isAnalogPin(pin)          ? MODE_ANALOG
                      : (mask & bitOf(MODE_INPUT)) ? MODE_INPUT
                      : (mask & bitOf(MODE_PULLUP)) ? MODE_PULLUP
                      : (mask & bitOf(MODE_PWM))    ? MODE_PWM
                                                    : MODE_SERVO;
    setMode(pin, initial);
  }
}

}  // namespace board
