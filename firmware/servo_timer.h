// Servo pulses made in hardware by Timer1: fast PWM with TOP = ICR1 (mode 14),
// prescaler 64, so one tick is 4 us and a period of 5000 ticks is 20 ms (50 Hz).
// Channel A drives pin 9 (OC1A), channel B pin 10 (OC1B). The pulse width is
// exact and jitter-free (no interrupt is involved), and OCR1x is double-buffered
// by the timer, so a new width starts at the next period, never mid-pulse.
// Timer1 is not available for analogWrite() on pins 9 and 10 any more.
#ifndef DICE_TOWER_SERVO_TIMER_H
#define DICE_TOWER_SERVO_TIMER_H

#include <stdint.h>

namespace servo_timer {

const uint16_t DEFAULT_MIN_US = 544;    // like Arduino's Servo library
const uint16_t DEFAULT_MAX_US = 2400;
const uint16_t PERIOD_US = 20000;
const uint8_t NO_CHANNEL = 0xFF;

void begin();
// 0 for pin 9, 1 for pin 10, NO_CHANNEL for any other pin.
uint8_t channelForPin(uint8_t pin);
// Sets the pulse range used for angles; clamped to 1..PERIOD_US-1, swapped if reversed.
void setRange(uint8_t channel, uint16_t minUs, uint16_t maxUs);
// Servo.write() semantics: values below 544 are degrees (clamped to 0-180),
// larger ones microseconds (clamped to the range). Starts pulses if stopped.
void write(uint8_t channel, uint16_t value);
void writeAngle(uint8_t channel, uint16_t degrees);
void writeMicroseconds(uint8_t channel, uint16_t us);
// Stops the pulses and holds the pin low: the servo goes limp.
void stop(uint8_t channel);
bool running(uint8_t channel);
uint16_t pulseMicroseconds(uint8_t channel);

}  // namespace servo_timer

#endif
